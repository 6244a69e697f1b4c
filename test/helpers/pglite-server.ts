import { PGlite } from '@electric-sql/pglite';
import { vector } from '@electric-sql/pglite-pgvector';
import { PGLiteSocketServer } from '@electric-sql/pglite-socket';

export interface PgliteServer {
  url: string;
  stop(): Promise<void>;
}

/**
 * Real Postgres (18, with pgvector 0.8) compiled to WASM, served over the wire
 * protocol on an ephemeral loopback port, so the `pg` driver runs exactly the
 * production code path. It is single-threaded and runs one transaction at a
 * time across its connections.
 */
export async function startPgliteServer(): Promise<PgliteServer> {
  const db = await PGlite.create({ extensions: { vector } });
  const server = new PGLiteSocketServer({ db, port: 0, host: '127.0.0.1', maxConnections: 16 });
  await server.start();
  const address = (server as unknown as { server: { address(): { port: number } } }).server.address();
  return {
    url: `postgres://postgres@127.0.0.1:${address.port}/postgres`,
    stop: async () => {
      await server.stop();
      await db.close();
    },
  };
}
