import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Database } from 'better-sqlite3';
import { openSqliteConnection, openSqliteDatabase } from './sqlite-database.js';
import { PageCachePrimer, primePageCache } from './sqlite-page-cache-prime.js';

const DIMENSION = 768;
const STORED = 600;

/** Messages `from` to `from + count - 1` of one conversation, each with a stored vector of DIMENSION floats. */
function storeVectors(db: Database, from: number, count: number): void {
  const at = '2026-06-01T00:00:00.000Z';
  db.prepare(`INSERT OR IGNORE INTO conversations (id, label, folder, status, created_at, updated_at, last_accessed_at)
    VALUES ('c', 'notes', '/', 'active', ?, ?, ?)`).run(at, at, at);
  const message = db.prepare(`INSERT INTO messages (seq, id, conversation_id, position, role, content, timestamp)
    VALUES (?, ?, 'c', ?, 'user', 'text', ?)`);
  const vector = db.prepare('INSERT INTO message_vectors (message_seq, model, vector) VALUES (?, \'m\', ?)');
  db.transaction(() => {
    for (let seq = from; seq < from + count; seq += 1) {
      message.run(seq, `m${seq}`, seq, at);
      vector.run(seq, Buffer.from(new Float32Array(DIMENSION).fill(seq).buffer));
    }
  })();
}

describe('priming a connection\'s page cache with the newest stored vectors', () => {
  let dir: string;
  let file: string;

  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'memsvc-prime-'));
    file = join(dir, 'memsvc.db');
    const db = openSqliteDatabase(file);
    storeVectors(db, 1, STORED);
    db.close();
  });
  after(() => rmSync(dir, { recursive: true, force: true }));

  const connection = (cachePages: number): Database => {
    const db = openSqliteConnection(file);
    db.pragma(`cache_size = ${cachePages}`);
    return db;
  };

  test('reads as many stored vectors as the cache has pages, or all of them when fewer', async () => {
    const small = connection(100);
    const large = connection(5000);
    try {
      assert.equal(await primePageCache(small, () => false), 100);
      assert.equal(await primePageCache(large, () => false), STORED);
    } finally {
      small.close();
      large.close();
    }
  });

  test('a cache size in KiB (negative) counts in pages of the file', async () => {
    const db = connection(100);
    try {
      const pageSize = db.pragma('page_size', { simple: true }) as number;
      db.pragma(`cache_size = -${(pageSize * 300) / 1024}`);
      assert.equal(await primePageCache(db, () => false), 300);
    } finally {
      db.close();
    }
  });

  test('stops between steps once told to (the connection closing), and other reads run between its steps', async () => {
    const db = connection(5000);
    try {
      let stop = false;
      const priming = primePageCache(db, () => stop);
      // The caller's own read runs while priming is under way: the prime yields between steps.
      await new Promise((resolve) => setImmediate(resolve));
      assert.equal(db.prepare('SELECT count(*) FROM message_vectors').pluck().get(), STORED);
      stop = true;
      const read = await priming;
      assert.ok(read > 0 && read < STORED, `stopped part way: ${read} of ${STORED}`);
    } finally {
      db.close();
    }
  });

  test('a store without vectors reads nothing', async () => {
    const empty = join(dir, 'empty.db');
    openSqliteDatabase(empty).close();
    const db = openSqliteConnection(empty);
    try {
      assert.equal(await primePageCache(db, () => false), 0);
    } finally {
      db.close();
    }
  });
});

describe('PageCachePrimer', () => {
  let dir: string;
  before(() => { dir = mkdtempSync(join(tmpdir(), 'memsvc-primer-')); });
  after(() => rmSync(dir, { recursive: true, force: true }));

  test('a store smaller than the cache is primed again as it grows, at most every 30 s, until the cache is full', async () => {
    const file = join(dir, 'growing.db');
    const writer = openSqliteDatabase(file);
    let stored = 0;
    const store = (count: number) => { storeVectors(writer, stored + 1, count); stored += count; };
    const reader = openSqliteConnection(file);
    reader.pragma('cache_size = 200');
    let clock = 0;
    const primer = new PageCachePrimer(reader, () => !reader.open, () => clock);
    try {
      store(50);
      assert.equal(await primer.primeIfDue(), 50, 'at the start: all there is');
      store(500);
      assert.equal(primer.primeIfDue(), null, 'not again within 30 s');
      clock += 30_000;
      assert.equal(await primer.primeIfDue(), 200, 'later, with the store grown: the cache\'s worth');
      clock += 60_000;
      assert.equal(primer.primeIfDue(), null, 'the cache is full: never again');
    } finally {
      reader.close();
      writer.close();
    }
  });
});
