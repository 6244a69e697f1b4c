import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Database } from 'better-sqlite3';
import { openSqliteDatabase } from './sqlite-database.js';
import { StatementCache } from './sqlite-statements.js';
import { matchingVectorSample } from './sqlite-stored-vectors.js';

const DIMENSION = 4;
let dir: string;
let db: Database;

/** Message i's vector carries i in its first component, so a sample's rows name their messages. */
const vectorOf = (i: number) => Float32Array.from([i, 1, 0, 0]);
const keysIn = (sample: Float32Array) => Array.from({ length: sample.length / DIMENSION }, (_, row) => sample[row * DIMENSION]!);

before(() => {
  dir = mkdtempSync(join(tmpdir(), 'memsvc-sample-'));
  db = openSqliteDatabase(join(dir, 'memsvc.db'));
  const conversation = db.prepare(`INSERT INTO conversations (id, label, folder, status, created_at, updated_at, last_accessed_at)
    VALUES (?, 'notes', ?, 'active', ?, ?, ?)`);
  const message = db.prepare(`INSERT INTO messages (seq, id, conversation_id, position, role, content, timestamp)
    VALUES (?, ?, ?, ?, 'user', 'text', ?)`);
  const vector = db.prepare('INSERT INTO message_vectors (message_seq, model, vector) VALUES (?, ?, ?)');
  const at = '2026-06-01T00:00:00.000Z';
  db.transaction(() => {
    // 100 conversations of 10 messages; every fourth in /topic; messages of day 2 from conversation 50 on.
    for (let c = 0; c < 100; c += 1) conversation.run(`c${c}`, c % 4 === 0 ? '/topic/sub' : '/other', at, at, at);
    for (let i = 1; i <= 1000; i += 1) {
      const c = Math.floor((i - 1) / 10);
      message.run(i, `m${i}`, `c${c}`, (i - 1) % 10, c < 50 ? '2026-06-01T00:00:00.000Z' : '2026-06-02T00:00:00.000Z');
      // The last conversation of the folder is not embedded yet.
      if (c !== 96) vector.run(i, 'test-model', Buffer.from(vectorOf(i).buffer));
    }
  })();
});

after(() => {
  db.close();
  rmSync(dir, { recursive: true, force: true });
});

test('a sample of a filter\'s stored vectors: only its matches, spread evenly over them, at most the count asked', () => {
  const statements = new StatementCache(db);
  const keys = keysIn(matchingVectorSample(statements, { folder: '/topic' }, 50, DIMENSION));
  const inTopic = (key: number) => Math.floor((key - 1) / 10) % 4 === 0;
  assert.ok(keys.every(inTopic), 'every row is a match of the folder');
  assert.ok(keys.length > 40 && keys.length <= 50, `about the 50 asked, never more: ${keys.length}`);
  assert.ok(keys[0]! <= 10 && keys.at(-1)! > 900, `from the first matches to the last: ${keys[0]} .. ${keys.at(-1)}`);
  assert.ok(!keys.some((key) => key > 960 && key <= 970), 'a match without a vector is left out');

  const all = keysIn(matchingVectorSample(statements, { folder: '/topic' }, 1000, DIMENSION));
  assert.equal(all.length, 240, 'fewer matches than asked: every embedded match, once');
  assert.equal(new Set(all).size, 240);
});

test('a filter on dates only, and one no message passes', () => {
  const statements = new StatementCache(db);
  const later = keysIn(matchingVectorSample(statements, { dateFrom: '2026-06-02T00:00:00.000Z' }, 100, DIMENSION));
  // Picked among all day-2 matches; the two picks in the conversation not yet embedded have no vector.
  assert.ok(later.length >= 90 && later.length <= 100, `about the 100 asked: ${later.length}`);
  assert.ok(later.every((key) => key > 500), 'only the messages from day 2');
  assert.equal(matchingVectorSample(statements, { folder: '/nowhere' }, 100, DIMENSION).length, 0);
});
