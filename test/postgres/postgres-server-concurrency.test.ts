import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { PostgresConversationStore } from '../../src/adapters/postgres/postgres-conversation.store.js';
import { PostgresEmbeddingQueue } from '../../src/adapters/postgres/postgres-embedding.queue.js';
import { PostgresVectorIndex } from '../../src/adapters/postgres/postgres-vector-index.js';
import { migratePostgres, POSTGRES_MIGRATIONS } from '../../src/adapters/postgres/postgres-migrations.js';
import { ADMIN_URL, probeServer } from '../helpers/postgres-servers.js';
import { createPool, type Pool } from '../../src/adapters/postgres/postgres-pool.js';
import { newId } from '../../src/domain/ids.js';
import { PostgresStatisticsKeeper } from '../../src/adapters/postgres/postgres-statistics-keeper.js';
import { waitFor } from '../helpers/wait-for.js';

/**
 * Concurrency on a real PostgreSQL server, where separate connections are separate backends (PGlite runs one
 * session, so it never shows lock ordering, deadlocks or real type coercion). With pgvector there, every migration
 * runs; without it, those that need vectors are left out and the vector cases skip.
 */
const server = await probeServer();
const skip = server ? false : `no PostgreSQL at ${new URL(ADMIN_URL).host} (set MEMSVC_TEST_POSTGRES_ADMIN_URL): server concurrency is not tested`;
if (skip) console.log(`# SKIP ${skip}`);
const vectors = Boolean(server?.pgvector);
const VECTOR_MIGRATIONS = new Set([2, 4, 7, 8]);
const migrations = POSTGRES_MIGRATIONS.filter((migration) => vectors || !VECTOR_MIGRATIONS.has(migration.version));

describe('postgres server: replicas racing on one database', { skip }, () => {
  const database = `memsvc_test_${randomBytes(6).toString('hex')}`;
  const url = ADMIN_URL.replace(/\/[^/]*$/, `/${database}`);
  const pools: Pool[] = [];
  const pool = () => { const created = createPool(url, 4); pools.push(created); return created; };

  before(async () => {
    const admin = createPool(ADMIN_URL, 1);
    await admin.query(`CREATE DATABASE ${database}`);
    await admin.end();
  });
  after(async () => {
    await Promise.all(pools.map((p) => p.end()));
    const admin = createPool(ADMIN_URL, 1);
    await admin.query(`DROP DATABASE IF EXISTS ${database} WITH (FORCE)`);
    await admin.end();
  });

  test('replicas starting together apply each migration once, under the advisory lock', async () => {
    const applied = await Promise.all([pool(), pool(), pool(), pool()].map((p) => migratePostgres(p, { migrations })));
    assert.equal(applied.reduce((sum, n) => sum + n, 0), migrations.length, `applied counts: ${applied.join(',')}`);
    const { rows } = await pools[0]!.query<{ version: number }>('SELECT version FROM schema_migrations ORDER BY version');
    assert.deepEqual(rows.map((row) => row.version), migrations.map((migration) => migration.version));
  });

  test('concurrent claims never hand one message to two workers; a lapsed lease is claimed again', async () => {
    const store = new PostgresConversationStore(pool());
    const policy = { maxMessagesPerConversation: 1000, sessionGapMs: 60_000 };
    for (let c = 0; c < 3; c += 1) {
      await store.create({ id: newId(), label: 'c', folder: '/', importanceScore: 5, now: new Date().toISOString(),
        messages: Array.from({ length: 20 }, (_, i) => ({ role: 'user' as const, content: `message ${c}-${i}` })) }, policy);
    }
    const workers = [pool(), pool(), pool(), pool()].map((p) => new PostgresEmbeddingQueue(p, new PostgresVectorIndex(p)));
    const rounds = await Promise.all(workers.flatMap((queue) => [queue.claimPending(10, 60_000), queue.claimPending(10, 60_000)]));
    const keys = rounds.flat().map((message) => message.key);
    assert.equal(keys.length, 60, 'all 60 claimed');
    assert.equal(new Set(keys).size, 60, 'no message claimed twice');
    assert.deepEqual(await workers[0]!.claimPending(10, 60_000), []);

    await pools[0]!.query(`UPDATE embedding_jobs SET claimed_until = now() - interval '1 second' WHERE message_seq = ANY($1::bigint[])`,
      [keys.slice(0, 5)]);
    const retaken = await Promise.all(workers.map((queue) => queue.claimPending(10, 60_000)));
    assert.deepEqual(retaken.flat().map((m) => m.key).sort((a, b) => a - b), keys.slice(0, 5).sort((a, b) => a - b));
  });

  test('concurrent appends to one conversation get distinct positions and true counters', async () => {
    const stores = [pool(), pool()].map((p) => new PostgresConversationStore(p));
    const policy = { maxMessagesPerConversation: 1000, sessionGapMs: 60_000 };
    const created = await stores[0]!.create({ id: newId(), label: 'race', folder: '/', importanceScore: 5, now: new Date().toISOString(), messages: [] }, policy);
    await Promise.all(Array.from({ length: 8 }, (_, i) => stores[i % 2]!.appendMessages(created.id,
      Array.from({ length: 5 }, (_, j) => ({ role: 'user' as const, content: `word ${i}-${j}` })), new Date().toISOString(), policy)));
    const conversation = await stores[0]!.get(created.id);
    assert.deepEqual([conversation!.messageCount, conversation!.wordCount], [40, 80]);
    const { rows } = await pools[0]!.query<{ position: number }>('SELECT position FROM messages WHERE conversation_id = $1 ORDER BY position', [created.id]);
    assert.deepEqual(rows.map((row) => row.position), Array.from({ length: 40 }, (_, i) => i));
  });

  test('a rebuild while workers complete batches and appends arrive: no deadlock, and each message queued or stored, never both',
    { skip: vectors ? false : 'the server has no pgvector' }, async () => {
      const store = new PostgresConversationStore(pool());
      const policy = { maxMessagesPerConversation: 1000, sessionGapMs: 60_000 };
      const queues = [pool(), pool()].map((p) => new PostgresEmbeddingQueue(p, new PostgresVectorIndex(p)));
      await pools[0]!.query('TRUNCATE conversations, messages, message_vectors, embedding_jobs, service_state CASCADE');
      await queues[0]!.recordModel({ model: 'race', dimension: 4 });
      const ids: string[] = [];
      for (let c = 0; c < 6; c += 1) {
        ids.push((await store.create({ id: newId(), label: 'r', folder: '/', importanceScore: 5, now: new Date().toISOString(),
          messages: Array.from({ length: 25 }, (_, i) => ({ role: 'user' as const, content: `rebuild ${c}-${i}` })) }, policy)).id);
      }
      const vector = (key: number) => Float32Array.from([1, key % 7, 2, 3]);
      const worker = async (queue: PostgresEmbeddingQueue) => {
        for (let round = 0; round < 25; round += 1) {
          const claimed = await queue.claimPending(16, 60_000);
          await queue.complete('race', claimed.map((message) => ({ key: message.key, vector: vector(message.key) })));
        }
      };
      const rebuilder = async () => {
        for (let round = 0; round < 8; round += 1) await queues[1]!.resetAll();
      };
      const appender = async () => {
        for (let round = 0; round < 12; round += 1) {
          await store.appendMessages(ids[round % ids.length]!, [{ role: 'user', content: `late ${round}` }], new Date().toISOString(), policy);
        }
      };
      await Promise.all([worker(queues[0]!), worker(queues[1]!), rebuilder(), appender()]);
      const { rows } = await pools[0]!.query<{ messages: number; both: number; neither: number }>(`SELECT count(*) AS messages,
          count(*) FILTER (WHERE j.message_seq IS NOT NULL AND v.message_seq IS NOT NULL) AS both,
          count(*) FILTER (WHERE j.message_seq IS NULL AND v.message_seq IS NULL) AS neither
        FROM messages m LEFT JOIN embedding_jobs j ON j.message_seq = m.seq LEFT JOIN message_vectors v ON v.message_seq = m.seq`);
      assert.deepEqual(rows[0], { messages: 6 * 25 + 12, both: 0, neither: 0 });
    });

  test('an append indexes its messages with their neighbours, and the message before them gains the first one', async () => {
    const store = new PostgresConversationStore(pool());
    const policy = { maxMessagesPerConversation: 1000, sessionGapMs: 60_000 };
    const created = await store.create({ id: newId(), label: 'fts', folder: '/', importanceScore: 5, now: new Date().toISOString(),
      messages: [{ role: 'user', content: 'the lighthouse keeper' }, { role: 'assistant', content: 'a quiet evening' }] }, policy);
    await store.appendMessages(created.id, [{ role: 'user', content: 'walruses everywhere' }, { role: 'assistant', content: 'indeed' }],
      new Date().toISOString(), policy);
    const { rows } = await pools[0]!.query<{ position: number; tsv: string }>(`SELECT position, search_tsv::text AS tsv FROM messages
      WHERE conversation_id = $1 ORDER BY position`, [created.id]);
    const lexemes = (position: number, weight: 'A' | 'B') => [...rows[position]!.tsv.matchAll(/'([^']+)':([0-9A-D,]+)/g)]
      .filter(([, , positions]) => positions!.split(',').some((p) => (weight === 'A' ? /^\d+A?$/ : /B$/).test(p)))
      .map(([, lexeme]) => lexeme).sort();
    assert.deepEqual(lexemes(1, 'A'), ['even', 'quiet']);
    assert.deepEqual(lexemes(1, 'B'), ['everywher', 'keeper', 'lighthous', 'walrus']);
    assert.deepEqual(lexemes(2, 'B'), ['even', 'inde', 'quiet']);
    assert.deepEqual(lexemes(3, 'B'), ['everywher', 'walrus']);
  });

  test('stale planner statistics are refreshed by the driver itself, by one replica at a time', async () => {
    const store = new PostgresConversationStore(pool());
    const policy = { maxMessagesPerConversation: 1000, sessionGapMs: 60_000 };
    for (let c = 0; c < 130; c += 1) {
      await store.create({ id: newId(), label: 'stats', folder: `/stats/${c % 3}`, importanceScore: 5, now: new Date().toISOString(),
        messages: Array.from({ length: 10 }, (_, i) => ({ role: 'user' as const, content: `statistics ${c}-${i}` })) }, policy);
    }
    const analyzed = () => pools[0]!.query<{ changed: number; at: Date | null }>(`SELECT n_mod_since_analyze AS changed,
      last_analyze AS at FROM pg_stat_user_tables WHERE relname = 'messages' AND schemaname = current_schema()`);
    // Counters reach the statistics view when the writing backends report them (within a second or so).
    await waitFor(analyzed, { what: 'the inserts to show in pg_stat_user_tables', until: ({ rows }) => rows[0]!.changed >= 1_300,
      timeoutMs: 60_000, intervalMs: 200 });
    const before = (await analyzed()).rows[0]!.at;
    const keepers = [pool(), pool()].map((p) => new PostgresStatisticsKeeper(p));
    await Promise.all(keepers.map((keeper) => keeper.check()));
    await waitFor(analyzed, { what: 'messages to be analyzed', until: ({ rows }) => rows[0]!.at !== null && rows[0]!.at !== before
      && rows[0]!.changed < 1_300, timeoutMs: 60_000, intervalMs: 200 });
  });
});
