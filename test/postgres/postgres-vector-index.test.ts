import { after, before, beforeEach, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openPostgresStorage, type PostgresStorage } from '../../src/adapters/postgres/postgres-storage.js';
import { createPool, type Pool } from '../../src/adapters/postgres/postgres-pool.js';
import type { VectorIndexOptions } from '../../src/adapters/postgres/postgres-vector-index.js';
import type { SearchFilter } from '../../src/domain/search.js';
import type { Logger } from '../../src/ports/logger.js';
import { newId } from '../../src/domain/ids.js';
import { POSTGRES_TARGETS, type PostgresDatabase } from '../helpers/postgres-servers.js';
import { loadConfig } from '../../src/config/config.loader.js';
import { openStorage } from '../../src/storage.js';

// PGlite, and the real server with pgvector when one is reachable: each suite below sets the database it runs on.
let pglite: PostgresDatabase;

const DIMENSION = 16;
const T0 = '2026-05-01T10:00:00.000Z';

/** A deterministic unit vector a message: points spread around a few centres, as real embeddings cluster. */
function vectorFor(n: number, dimension = DIMENSION): Float32Array {
  let seed = n * 2_654_435_761 % 2 ** 32;
  const random = () => { seed = (seed * 1_664_525 + 1_013_904_223) % 2 ** 32; return seed / 2 ** 32 - 0.5; };
  const centre = n % 5;
  const values = Array.from({ length: dimension }, (_, d) => (d === centre ? 2 : 0) + random());
  const norm = Math.hypot(...values);
  return Float32Array.from(values, (value) => value / norm);
}

/** count numbers from `from`. */
const range = (from: number, count: number) => Array.from({ length: count }, (_, i) => from + i);

const cosine = (a: Float32Array, b: Float32Array) => a.reduce((sum, value, i) => sum + value * b[i]!, 0);

/** A connection of the test's own beside the driver's (PGlite is one session: its settings reach the driver's too). */
async function withSession<T>(work: (session: Pool) => Promise<T>): Promise<T> {
  const session = createPool(pglite.url, 1);
  try {
    return await work(session);
  } finally {
    await session.end();
  }
}

const emptied = () => withSession(async (session) => {
  const { rows } = await session.query<{ n: number }>(`SELECT count(*) AS n FROM pg_tables WHERE tablename = 'conversations'`);
  if (rows[0]!.n > 0) {
    await session.query('TRUNCATE conversations, messages, message_vectors, embedding_jobs, summaries, service_state RESTART IDENTITY CASCADE');
    for (const name of ['message_vectors_ivfflat', 'message_vectors_ivfflat_next', 'message_vectors_hnsw_half']) {
      await session.query(`DROP INDEX IF EXISTS ${name}`);
    }
  }
});

const open = (vectorIndex: Partial<VectorIndexOptions>, exactMaxCandidates = 0, log?: Logger) =>
  openPostgresStorage({ url: pglite.url, poolSize: 4, exactMaxCandidates, vectorIndex: { kind: 'ivfflat', ...vectorIndex }, log });

/** Opens the driver with these index options, runs work on it, and closes it whatever happens. */
async function withStorage(vectorIndex: Partial<VectorIndexOptions>, work: (storage: PostgresStorage) => Promise<void>): Promise<void> {
  const storage = await open(vectorIndex);
  try {
    await work(storage);
  } finally {
    await storage.close();
  }
}

/** Stores one-message conversations (`message <n>`, with vectorFor(n)) in `folder` and embeds them as the worker does; returns their vectors. */
async function addEmbedded(storage: PostgresStorage, numbers: number[], folder = '/all', dimension = DIMENSION):
  Promise<Map<number, Float32Array>> {
  for (const n of numbers) {
    await storage.conversations.create({ id: newId(), label: 'chat', folder, importanceScore: 5, now: T0,
      messages: [{ role: 'user', content: `message ${n}`, timestamp: T0 }] }, { maxMessagesPerConversation: 50, sessionGapMs: 60_000 });
  }
  await storage.embeddings.recordModel({ model: 'test-model', dimension });
  const stored = new Map<number, Float32Array>();
  for (;;) {
    const batch = await storage.embeddings.claimPending(50, 60_000);
    if (batch.length === 0) return stored;
    const items = batch.map((message) => ({ key: message.key, vector: vectorFor(Number(message.content.split(' ')[1]), dimension) }));
    await storage.embeddings.complete('test-model', items);
    for (const item of items) stored.set(item.key, item.vector);
  }
}

/** The exact k nearest by cosine among `vectors`, best first (ties by key, as the driver orders them). */
function exactTop(vectors: Map<number, Float32Array>, query: Float32Array, k: number): number[] {
  return [...vectors].map(([key, vector]) => ({ key, score: cosine(query, vector) }))
    .sort((a, b) => b.score - a.score || a.key - b.key).slice(0, k).map((item) => item.key);
}

const indexes = () => withSession(async (session) => (await session.query<{ name: string }>(
  `SELECT indexname AS name FROM pg_indexes WHERE tablename = 'message_vectors' AND indexname NOT IN ('message_vectors_pkey', 'message_vectors_conversation', 'message_vectors_by_added') ORDER BY 1`))
  .rows.map((row) => row.name));

async function nearestKeys(storage: PostgresStorage, query: Float32Array, k: number, filter: SearchFilter = {}): Promise<number[]> {
  const found = await storage.vectorSearch(() => null).nearest(query, filter, k);
  assert.ok(found.every((item, i) => i === 0 || item.score <= found[i - 1]!.score), 'best first');
  return found.map((item) => item.key);
}

const queries = [vectorFor(1_000), vectorFor(1_001), vectorFor(1_003)];

for (const target of POSTGRES_TARGETS) {
  describe(`postgres vector index (${target.name})`, () => {
    before(async () => { pglite = await target.open(); });
    after(async () => { await pglite.stop(); });

    beforeEach(emptied);

    test('exact scans below minRows; lists learned at minRows and learned again once the vectors double; every list probed is exact', async () => {
      await withStorage({ minRows: 60, growth: 2, probeShare: 1 }, async (storage) => {
        const vectors = await addEmbedded(storage, range(0, 50));
        await storage.vectorIndex.maintain();
        assert.deepEqual(await indexes(), [], 'no index below minRows');
        assert.equal(await storage.vectorIndex.currentState(), null);
        for (const query of queries) assert.deepEqual(await nearestKeys(storage, query, 10), exactTop(vectors, query, 10));

        for (const [key, vector] of await addEmbedded(storage, range(50, 20))) vectors.set(key, vector);
        await storage.vectorIndex.maintain();
        assert.deepEqual(await indexes(), ['message_vectors_ivfflat']);
        assert.deepEqual(await storage.vectorIndex.currentState(), { lists: 8, rows: 70 }, 'round(sqrt(70)) lists');
        for (const query of queries) assert.deepEqual(await nearestKeys(storage, query, 10), exactTop(vectors, query, 10));

        // 69 more: 139 < 2 x 70, the lists stay; one more and they are learned again from 140.
        for (const [key, vector] of await addEmbedded(storage, range(70, 69))) vectors.set(key, vector);
        await storage.vectorIndex.maintain();
        assert.deepEqual(await storage.vectorIndex.currentState(), { lists: 8, rows: 70 });
        for (const [key, vector] of await addEmbedded(storage, range(139, 1))) vectors.set(key, vector);
        await storage.vectorIndex.maintain();
        assert.deepEqual(await storage.vectorIndex.currentState(), { lists: 12, rows: 140 });
        assert.deepEqual(await indexes(), ['message_vectors_ivfflat'], 'the new index took the old one\'s place');
        for (const query of queries) assert.deepEqual(await nearestKeys(storage, query, 10), exactTop(vectors, query, 10));
      });
    });

    test('storing vectors brings the index in line by itself, behind the writes', async () => {
      await withStorage({ minRows: 30, growth: 2, probeShare: 1 }, async (storage) => {
        await addEmbedded(storage, range(0, 40));
        // complete() noted the stored vectors and started the build; maintain() joins it (or finds it done).
        for (let i = 0; i < 100 && (await storage.vectorIndex.currentState()) === null; i += 1) {
          await new Promise((resolve) => setTimeout(resolve, 50));
        }
        assert.deepEqual(await storage.vectorIndex.currentState(), { lists: 6, rows: 40 });
      });
    });

    test('a filtered search yields the admitted vectors however few lie in the probed lists, best first', async () => {
      // One list probed: the query's, about centre 3, where all but a few vectors are in a folder the filter excludes.
      const storage = await open({ minRows: 40, growth: 2, probeShare: 0.01 });
      // At this size the planner would sort a broad filter's rows rather than read the index in order, as it does at
      // scale. PGlite is one session: this setting reaches the driver's connections too.
      const session = createPool(pglite.url, 1);
      try {
        const admitted = await addEmbedded(storage, [...Array(150).keys()].filter((n) => n % 5 !== 3), '/common');
        await addEmbedded(storage, [...Array(60).keys()].map((i) => 1_003 + 5 * i), '/elsewhere');
        const rare = await addEmbedded(storage, [3, 8, 13], '/rare');
        await storage.vectorIndex.maintain();
        assert.deepEqual(await indexes(), ['message_vectors_ivfflat']);
        for (const query of [vectorFor(2_003), vectorFor(2_008)]) {
          // A broad filter goes through the index: the iterative scan probes further lists until it has k admitted.
          await session.query('SET enable_sort = off');
          const broad = await nearestKeys(storage, query, 10, { folder: '/common' });
          assert.equal(broad.length, 10);
          assert.ok(broad.every((key) => admitted.has(key)));
          await session.query('RESET enable_sort');
          // A selective one is planned as an exact scan of its few rows.
          assert.deepEqual(await nearestKeys(storage, query, 10, { folder: '/rare' }), exactTop(rare, query, 10));
        }
      } finally {
        await session.query('RESET enable_sort').catch(() => {});
        await session.end();
        await storage.close();
      }
    });

    test('hnsw under a filter, through the graph and exactly, ranks as a scan of the admitted vectors, ties by key', async () => {
      for (const exactMaxCandidates of [0, 20_000]) {
        await emptied();
        const storage = await openPostgresStorage({ url: pglite.url, poolSize: 4, exactMaxCandidates, vectorIndex: { kind: 'hnsw' } });
        try {
          // The same texts in two folders: every vector in /a has a twin in /b with the same score.
          const a = await addEmbedded(storage, range(0, 60), '/a');
          const b = await addEmbedded(storage, range(0, 60), '/b');
          await addEmbedded(storage, range(500, 40), '/c');
          const both = new Map([...a, ...b]);
          for (const query of queries) {
            const found = await storage.vectorSearch(() => null).nearest(query, { folder: '/a' }, 10);
            assert.deepEqual(found.map((item) => item.key), exactTop(a, query, 10), `folder /a, exact up to ${exactMaxCandidates}`);
            const twins = await storage.vectorSearch(() => null).nearest(query, { excludedFolders: ['/c'] }, 10);
            assert.deepEqual(twins.map((item) => item.key), exactTop(both, query, 10), `twins, exact up to ${exactMaxCandidates}`);
            for (let i = 0; i + 1 < twins.length; i += 2) assert.ok(Math.abs(twins[i]!.score - twins[i + 1]!.score) < 1e-3);
          }
        } finally {
          await storage.close();
        }
      }
    });

    test('the configured kind wins: an ivfflat store opened for hnsw gets a graph, and back', async () => {
      let vectors = new Map<number, Float32Array>();
      await withStorage({ minRows: 40, growth: 2, probeShare: 1 }, async (storage) => {
        vectors = await addEmbedded(storage, range(0, 60));
        await storage.vectorIndex.maintain();
        assert.deepEqual(await indexes(), ['message_vectors_ivfflat']);
      });

      await withStorage({ kind: 'hnsw' }, async (storage) => {
        await storage.vectorIndex.maintain();
        assert.deepEqual(await indexes(), ['message_vectors_hnsw_half']);
        assert.equal(await storage.vectorIndex.currentState(), null, 'the lists went with their index');
        for (const query of queries) assert.deepEqual(await nearestKeys(storage, query, 5), exactTop(vectors, query, 5));
      });

      await withStorage({ minRows: 40, growth: 2, probeShare: 1 }, async (storage) => {
        await storage.vectorIndex.maintain();
        assert.deepEqual(await indexes(), ['message_vectors_ivfflat']);
        assert.deepEqual(await storage.vectorIndex.currentState(), { lists: 8, rows: 60 });
      });
    });

    test('a new model drops the index and its lists', async () => {
      await withStorage({ minRows: 40, growth: 2, probeShare: 1 }, async (storage) => {
        await addEmbedded(storage, range(0, 50));
        await storage.vectorIndex.maintain();
        assert.deepEqual(await indexes(), ['message_vectors_ivfflat']);
        await storage.embeddings.resetAll();
        await storage.embeddings.recordModel({ model: 'other-model', dimension: 8 });
        assert.deepEqual(await indexes(), []);
        assert.equal(await storage.vectorIndex.currentState(), null);
      });
    });

    test('a half-built index left by a crash is dropped, and the build done, when a replica starts', async () => {
      let vectors = new Map<number, Float32Array>();
      await withStorage({ minRows: 1_000 }, async (storage) => {
        vectors = await addEmbedded(storage, range(0, 50));
      });
      // What a build cut short leaves behind: the next index's name taken.
      await withSession((session) => session.query('CREATE INDEX message_vectors_ivfflat_next ON message_vectors (message_seq)'));
      await withStorage({ minRows: 40, growth: 2, probeShare: 1 }, async (storage) => {
        await storage.vectorIndex.maintain();
        assert.deepEqual(await indexes(), ['message_vectors_ivfflat']);
        assert.deepEqual(await storage.vectorIndex.currentState(), { lists: 7, rows: 50 });
        for (const query of queries) assert.deepEqual(await nearestKeys(storage, query, 10), exactTop(vectors, query, 10));
      });
    });

    test('a build another replica holds the lease for is left to it; once its lease lapses, this replica builds', async () => {
      const storage = await open({ minRows: 40, growth: 2, probeShare: 1 });
      const pool = createPool(pglite.url, 1);
      try {
        await storage.vectorIndex.maintain();
        await pool.query(`INSERT INTO service_state (key, value) VALUES ('vector_index_build', $1)`,
          [new Date(Date.now() + 60_000).toISOString()]);
        await addEmbedded(storage, range(0, 50));
        await storage.vectorIndex.maintain();
        assert.deepEqual(await indexes(), [], 'another replica is building');
        await pool.query(`UPDATE service_state SET value = $1 WHERE key = 'vector_index_build'`, [new Date(Date.now() - 1_000).toISOString()]);
        await storage.vectorIndex.maintain();
        assert.deepEqual(await indexes(), ['message_vectors_ivfflat']);
        const lease = await pool.query(`SELECT 1 FROM service_state WHERE key = 'vector_index_build'`);
        assert.equal(lease.rowCount, 0, 'the lease is given back');
      } finally {
        await pool.end();
        await storage.close();
      }
    });

    test('storage.vector_index in the configuration chooses the index the driver keeps', async () => {
      const dataDir = mkdtempSync(join(tmpdir(), 'memsvc-index-kind-'));
      const configured = (kind: string) => loadConfig({ file: '/nonexistent.yaml', env: { MEMSVC_DATA_DIR: dataDir,
        MEMSVC_STORAGE_DRIVER: 'postgres', MEMSVC_STORAGE_URL: pglite.url, MEMSVC_STORAGE_VECTOR_INDEX: kind } });
      try {
        for (const [kind, expected] of [['hnsw', ['message_vectors_hnsw_half']], ['ivfflat', []], ['local', []]] as const) {
          await emptied();
          const storage = await openStorage(configured(kind));
          try {
            await storage.embeddings.recordModel({ model: 'test-model', dimension: DIMENSION });
            // hnsw: a graph at once; ivfflat: nothing until there are vectors to learn lists from; local: never any
            // (each replica keeps its own graph).
            assert.deepEqual(await indexes(), expected, kind);
            assert.equal(storage.openLocalIndex !== null, kind === 'local', `${kind}: a graph in the replica`);
          } finally {
            await storage.close();
          }
        }
        // A store that had pgvector's graph loses it once its replicas keep their own.
        await emptied();
        const before = await openStorage(configured('hnsw'));
        await before.embeddings.recordModel({ model: 'test-model', dimension: DIMENSION });
        // The graph is built in the background, and close() ends a build in flight: let it finish first.
        await (before as PostgresStorage).vectorIndex.maintain();
        await before.close();
        assert.deepEqual(await indexes(), ['message_vectors_hnsw_half']);
        const converted = await openStorage(configured('local')) as PostgresStorage;
        try {
          await converted.vectorIndex.maintain();
          assert.deepEqual(await indexes(), [], 'the database graph is dropped');
        } finally {
          await converted.close();
        }
      } finally {
        rmSync(dataDir, { recursive: true, force: true });
      }
    });

    test('no more lists than the server\'s maintenance_work_mem can learn, and no session setting changed', async () => {
      // The database's setting for the driver's connections on a real server; PGlite is one session, so a SET is too.
      const session = createPool(pglite.url, 1);
      await session.query(`DO $$ BEGIN EXECUTE format('ALTER DATABASE %I SET maintenance_work_mem = %L', current_database(), '1MB'); END $$`);
      await session.query(`SET maintenance_work_mem = '1MB'`);
      const warnings: Array<Record<string, unknown>> = [];
      const log: Logger = { debug() {}, info() {}, warn: (fields: object) => { warnings.push(fields as Record<string, unknown>); }, error() {} };
      const storage = await open({ minRows: 4_000, growth: 2, probeShare: 1 }, 0, log);
      try {
        // 4,000 vectors want round(sqrt(4000)) = 63 lists; pgvector would refuse those in 1 MB (its k-means samples
        // 10,000 vectors and keeps a bound for each sample and list).
        for (let c = 0; c < 80; c += 1) {
          await storage.conversations.create({ id: newId(), label: 'chat', folder: '/all', importanceScore: 5, now: T0,
            messages: range(c * 50, 50).map((n) => ({ role: 'user' as const, content: `message ${n}`, timestamp: T0 })) },
          { maxMessagesPerConversation: 50, sessionGapMs: 60_000 });
        }
        const vectors = await addEmbedded(storage, []);
        assert.equal(vectors.size, 4_000);
        await storage.vectorIndex.maintain();
        const state = await storage.vectorIndex.currentState();
        assert.ok(state && state.rows === 4_000 && state.lists >= 2 && state.lists < 63, JSON.stringify(state));
        assert.deepEqual(await indexes(), ['message_vectors_ivfflat']);
        assert.deepEqual(warnings, [{ lists: state.lists, wanted: 63, vectors: 4_000 }], 'the cap that bit is logged');
        const setting = await session.query<{ value: string }>(`SELECT current_setting('maintenance_work_mem') AS value`);
        assert.equal(setting.rows[0]!.value, '1MB', 'the build left the setting as it found it');
        for (const query of queries) assert.deepEqual(await nearestKeys(storage, query, 10), exactTop(vectors, query, 10));
      } finally {
        await session.query(`DO $$ BEGIN EXECUTE format('ALTER DATABASE %I RESET maintenance_work_mem', current_database()); END $$`)
          .catch(() => {});
        await session.query('RESET maintenance_work_mem').catch(() => {});
        await session.end();
        await storage.close();
      }
    });
  });
}
