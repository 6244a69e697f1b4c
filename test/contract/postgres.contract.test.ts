import { after, before } from 'node:test';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openPostgresStorage } from '../../src/adapters/postgres/postgres-storage.js';
import { createPool } from '../../src/adapters/postgres/postgres-pool.js';
import { POSTGRES_TARGETS, type PostgresDatabase } from '../helpers/postgres-servers.js';
import { storageContract } from './storage-contract.js';

/** Empties every table between cases, keeping the migrated schema. */
async function emptied(url: string): Promise<void> {
  const pool = createPool(url, 1);
  try {
    const { rows } = await pool.query<{ n: number }>(`SELECT count(*) AS n FROM pg_tables WHERE tablename = 'conversations'`);
    if (rows[0]!.n > 0) {
      await pool.query('TRUNCATE conversations, messages, message_vectors, summaries, service_state, api_keys RESTART IDENTITY CASCADE');
    }
  } finally {
    await pool.end();
  }
}

// PGlite always; the real server with pgvector too whenever one is reachable (test/helpers/postgres-servers.ts).
for (const target of POSTGRES_TARGETS) {
  let database: PostgresDatabase;
  before(async () => { database = await target.open(); });
  after(async () => { await database.stop(); });
  storageContract({
    name: `postgres: ${target.name}`,
    claimsExclude: true,
    open: async (options) => {
      await emptied(database.url);
      return openPostgresStorage({ url: database.url, poolSize: 4, ...options });
    },
  });
  // storage.vector_index local: the replica's own graph gives the candidates, the database ranks them.
  const graphs = mkdtempSync(join(tmpdir(), 'memsvc-pg-graphs-'));
  after(() => rmSync(graphs, { recursive: true, force: true }));
  storageContract({
    name: `postgres, graph in the replica: ${target.name}`,
    claimsExclude: true,
    open: async (options) => {
      await emptied(database.url);
      // A graph dir of its own per store: a graph saved by an earlier case holds keys the emptied database hands out
      // again (RESTART IDENTITY), with that case's vectors.
      const dataDir = mkdtempSync(join(graphs, 'case-'));
      return openPostgresStorage({ url: database.url, poolSize: 4, vectorIndex: { kind: 'local' }, dataDir, ...options });
    },
  });
}
