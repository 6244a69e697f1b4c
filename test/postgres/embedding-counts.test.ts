import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { PostgresEmbeddingQueue } from '../../src/adapters/postgres/postgres-embedding.queue.js';
import { insertMessages } from '../../src/adapters/postgres/postgres-fts-index.js';
import { migratePostgres } from '../../src/adapters/postgres/postgres-migrations.js';
import { createPool } from '../../src/adapters/postgres/postgres-pool.js';
import { PostgresVectorIndex } from '../../src/adapters/postgres/postgres-vector-index.js';
import { POSTGRES_TARGETS } from '../helpers/postgres-servers.js';

const CONVERSATION = '0b7c5e52-7d44-4b7e-9a43-6f1a0c2d9e11';
const AT = '2025-01-01T00:00:00.000Z';

/**
 * The store-wide embedding counts read every job and every conversation; a large backlog is answered from the last
 * count for a while (DEFAULT_COUNTS_REUSE: 10,000 waiting, 1 s), here scaled down to 3 waiting and a minute.
 */
for (const target of POSTGRES_TARGETS) {
  describe(`embedding counts on PostgreSQL (${target.name})`, () => {
    test('a large backlog is answered from the last count; a small one, and a rebuild, are counted again', async () => {
      const pg = await target.open();
      const pool = createPool(pg.url, 1);
      try {
        await migratePostgres(pool);
        await pool.query(`INSERT INTO conversations (id, label, created_at, updated_at, last_accessed_at, message_count)
          VALUES ($1, 'chat', $2, $2, $2, 4)`, [CONVERSATION, AT]);
        await insertMessages(pool, CONVERSATION, [0, 1, 2, 3].map((position) => ({
          id: `0190a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5${position}`, position, role: 'user', name: null, content: `turn ${position}`,
          timestamp: AT, metadata: null,
        })));
        const reusing = { minPending: 3, maxAgeMs: 60_000 };
        const queue = new PostgresEmbeddingQueue(pool, new PostgresVectorIndex(pool), reusing);
        const uncached = new PostgresEmbeddingQueue(pool, new PostgresVectorIndex(pool));
        const finishOne = () => pool.query('DELETE FROM embedding_jobs WHERE message_seq = (SELECT min(message_seq) FROM embedding_jobs)');

        await finishOne();
        assert.deepEqual(await queue.counts(), { pending: 3, failed: 0, done: 1 });
        await finishOne();
        // 3 waiting is at the line: the last count stands, and still says that messages wait.
        assert.deepEqual(await queue.counts(), { pending: 3, failed: 0, done: 1 });
        assert.deepEqual(await uncached.counts(), { pending: 2, failed: 0, done: 2 });
        // A rebuild (every message waits again) is counted at once.
        await queue.resetAll();
        assert.deepEqual(await queue.counts(), { pending: 4, failed: 0, done: 0 });

        // Under the line every call counts, so the count reaches 0 exactly when nothing waits.
        const counted = new PostgresEmbeddingQueue(pool, new PostgresVectorIndex(pool), reusing);
        await finishOne();
        await finishOne();
        assert.deepEqual(await counted.counts(), { pending: 2, failed: 0, done: 2 });
        await finishOne();
        assert.deepEqual(await counted.counts(), { pending: 1, failed: 0, done: 3 });
        await finishOne();
        assert.deepEqual(await counted.counts(), { pending: 0, failed: 0, done: 4 });
      } finally {
        await pool.end();
        await pg.stop();
      }
    });
  });
}
