import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { PostgresConversationStore } from '../../src/adapters/postgres/postgres-conversation.store.js';
import { PostgresEmbeddingQueue } from '../../src/adapters/postgres/postgres-embedding.queue.js';
import { PostgresVectorIndex } from '../../src/adapters/postgres/postgres-vector-index.js';
import { migratePostgres } from '../../src/adapters/postgres/postgres-migrations.js';
import { createPool, type Pool } from '../../src/adapters/postgres/postgres-pool.js';
import { newId } from '../../src/domain/ids.js';

/**
 * Concurrency on a real PostgreSQL server, where separate connections are
 * separate backends (PGlite runs one session). The server here has no
 * pgvector, so these cases use the schema before the vector migration.
 */
const ADMIN_URL = process.env.MEMSVC_TEST_POSTGRES_ADMIN_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

async function serverAvailable(): Promise<boolean> {
  const pool = createPool(ADMIN_URL, 1);
  try {
    await pool.query('SELECT 1');
    return true;
  } catch {
    return false;
  } finally {
    await pool.end();
  }
}

const available = await serverAvailable();
const skip = available ? false : `no PostgreSQL at ${ADMIN_URL} (set MEMSVC_TEST_POSTGRES_ADMIN_URL): server concurrency is not tested`;
if (skip) console.log(`# SKIP ${skip}`);

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
    const applied = await Promise.all([pool(), pool(), pool(), pool()].map((p) => migratePostgres(p, { upTo: 1 })));
    assert.equal(applied.reduce((sum, n) => sum + n, 0), 1, `applied counts: ${applied.join(',')}`);
    const { rows } = await pools[0]!.query('SELECT version FROM schema_migrations');
    assert.deepEqual(rows, [{ version: 1 }]);
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

    await pools[0]!.query(`UPDATE messages SET claimed_until = now() - interval '1 second' WHERE seq = ANY($1::bigint[])`, [keys.slice(0, 5)]);
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
});
