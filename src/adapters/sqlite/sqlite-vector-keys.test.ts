import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import { migrate, MIGRATIONS } from './sqlite-migrations.js';
import { SqliteEmbeddingQueue } from './sqlite-embedding.queue.js';

/**
 * The index's catch-up after a start reads every stored vector's key. A store from before migration 7 gains the
 * keys' own index, and the keys come from it in order, page after page, never from the table's fat rows.
 */
test('a store with vectors from before migration 7: every key, in order, read from the keys index', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'memsvc-vector-keys-'));
  const db = new BetterSqlite3(join(dir, 'memsvc.db'));
  try {
    migrate(db, MIGRATIONS.filter((migration) => migration.version < 7));
    const now = '2026-06-01T00:00:00.000Z';
    db.prepare(`INSERT INTO conversations (id, label, folder, created_at, updated_at, last_accessed_at)
      VALUES ('c1', 'notes', '/', ?, ?, ?)`).run(now, now, now);
    const message = db.prepare(`INSERT INTO messages (seq, id, conversation_id, position, role, content, timestamp)
      VALUES (?, ?, 'c1', ?, 'user', 'text', ?)`);
    const vector = db.prepare(`INSERT INTO message_vectors (message_seq, model, vector) VALUES (?, 'm', ?)`);
    const stored: number[] = [];
    for (let i = 0; i < 2500; i += 1) {
      const seq = 10 + i * 3;
      message.run(seq, `m${seq}`, i, now);
      // Every seventh message has no vector (still pending): it is not a key of the index.
      if (i % 7 === 0) continue;
      vector.run(seq, Buffer.alloc(3072, i % 251));
      stored.push(seq);
    }
    migrate(db);

    const plan = db.prepare(`EXPLAIN QUERY PLAN SELECT message_seq FROM message_vectors INDEXED BY message_vectors_keys
      WHERE message_seq > ? ORDER BY message_seq LIMIT ?`).all(-1, 10) as Array<{ detail: string }>;
    assert.match(plan.map((row) => row.detail).join(' '), /COVERING INDEX message_vectors_keys/);

    const pages: number[][] = [];
    for await (const keys of new SqliteEmbeddingQueue(db).vectorKeys(1000)) pages.push(keys);
    assert.deepEqual(pages.map((keys) => keys.length), [1000, 1000, stored.length - 2000]);
    assert.deepEqual(pages.flat(), stored);
  } finally {
    db.close();
    rmSync(dir, { recursive: true, force: true });
  }
});
