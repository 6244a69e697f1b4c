import { after, before } from 'node:test';
import { openPostgresStorage } from '../../src/adapters/postgres/postgres-storage.js';
import { createPool } from '../../src/adapters/postgres/postgres-pool.js';
import { startPgliteServer, type PgliteServer } from '../../scripts/lib/pglite-server.js';
import { storageContract } from './storage-contract.js';

/** Empties every table between cases, keeping the migrated schema. */
async function emptied(url: string): Promise<void> {
  const pool = createPool(url, 1);
  try {
    const { rows } = await pool.query<{ n: number }>(`SELECT count(*) AS n FROM pg_tables WHERE tablename = 'conversations'`);
    if (rows[0]!.n > 0) {
      await pool.query('TRUNCATE conversations, messages, message_vectors, summaries, service_state RESTART IDENTITY CASCADE');
    }
  } finally {
    await pool.end();
  }
}

// PostgreSQL 18 + pgvector 0.8 in-process (PGlite over the wire); a real server too when MEMSVC_TEST_POSTGRES_URL is set.
let pglite: PgliteServer;
before(async () => { pglite = await startPgliteServer(); });
after(async () => { await pglite.stop(); });

storageContract({
  name: 'postgres (PGlite: Postgres 18 + pgvector 0.8)',
  claimsExclude: true,
  open: async (options) => {
    await emptied(pglite.url);
    return openPostgresStorage({ url: pglite.url, poolSize: 4, ...options });
  },
});

const serverUrl = process.env.MEMSVC_TEST_POSTGRES_URL;
if (serverUrl) {
  storageContract({
    name: `postgres server (${new URL(serverUrl).host})`,
    claimsExclude: true,
    open: async (options) => {
      await emptied(serverUrl);
      return openPostgresStorage({ url: serverUrl, poolSize: 4, ...options });
    },
  });
}
