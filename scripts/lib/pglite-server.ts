import { createServer, type Server, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';
import { PGlite } from '@electric-sql/pglite';
import { vector } from '@electric-sql/pglite-pgvector';

export interface PgliteServer {
  url: string;
  stop(): Promise<void>;
}

const SSL_REQUEST = 80877103;
const CANCEL_REQUEST = 80877102;
/** Messages after which a client waits for the server: the end of one request cycle. */
const CYCLE_END = new Set(['S', 'Q', 'X']);

/**
 * Real Postgres (18, with pgvector 0.8) compiled to WASM and served over the
 * wire protocol on an ephemeral loopback port, so the `pg` driver runs exactly
 * the production code path.
 *
 * PGlite is one backend session. pglite-socket's multiplexer interleaves
 * clients message by message, which mixes one client's Parse/Bind/Execute with
 * another's under concurrent load; this server hands the session to one
 * connection per request cycle (up to Sync), and for the whole of a
 * transaction, which is how separate backends would behave for our workload.
 */
export async function startPgliteServer(): Promise<PgliteServer> {
  const db = await PGlite.create({ extensions: { vector } });
  let tail: Promise<void> = Promise.resolve();
  const acquire = async (): Promise<() => void> => {
    let release!: () => void;
    const next = new Promise<void>((resolve) => { release = resolve; });
    const previous = tail;
    tail = previous.then(() => next);
    await previous;
    return release;
  };

  const sockets = new Set<Socket>();
  const server: Server = createServer((socket) => {
    sockets.add(socket);
    let buffer = Buffer.alloc(0);
    let started = false;
    let batch: Buffer[] = [];
    let held: (() => void) | null = null;
    let work: Promise<void> = Promise.resolve();

    const run = (bytes: Buffer) => {
      work = work.then(async () => {
        held ??= await acquire();
        try {
          await db.runExclusive(() => db.execProtocolRawStream(new Uint8Array(bytes), {
            onRawData: (chunk: Uint8Array) => { if (socket.writable) socket.write(Buffer.from(chunk)); },
          }));
        } finally {
          if (!db.isInTransaction()) {
            held?.();
            held = null;
          }
        }
      }).catch(() => { socket.destroy(); });
    };

    socket.on('data', (data) => {
      buffer = Buffer.concat([buffer, data]);
      for (;;) {
        if (!started) {
          if (buffer.length < 8) return;
          const length = buffer.readInt32BE(0);
          const code = buffer.readInt32BE(4);
          if (code === SSL_REQUEST) { socket.write('N'); buffer = buffer.subarray(8); continue; }
          if (code === CANCEL_REQUEST) { buffer = buffer.subarray(16); socket.end(); return; }
          if (buffer.length < length) return;
          run(buffer.subarray(0, length));
          buffer = buffer.subarray(length);
          started = true;
          continue;
        }
        if (buffer.length < 5) return;
        const total = 1 + buffer.readInt32BE(1);
        if (buffer.length < total) return;
        const type = String.fromCharCode(buffer[0]!);
        batch.push(buffer.subarray(0, total));
        buffer = buffer.subarray(total);
        if (type === 'X') { socket.end(); return; }
        if (CYCLE_END.has(type)) {
          run(Buffer.concat(batch));
          batch = [];
        }
      }
    });
    socket.on('error', () => {});
    socket.on('close', () => {
      sockets.delete(socket);
      // A client gone mid-transaction (a killed replica) must not keep the session.
      work = work.then(async () => {
        if (held === null) return;
        if (db.isInTransaction()) await db.exec('ROLLBACK').catch(() => {});
        held();
        held = null;
      });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    stop: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await db.close();
    },
  };
}
