import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Database } from 'better-sqlite3';
import type { ScoredKey } from '../../domain/search.js';
import { openSqliteDatabase } from './sqlite-database.js';
import { filterReadsOn, SqliteFilterReadThread, warmUpForLargeIndex, type FilterReads } from './sqlite-filter-reads.js';

const DIMENSION = 8;
const MESSAGES = 300;
let dir: string;
let file: string;
let db: Database;

/** A deterministic vector per message, and a query near none of them in particular. */
function vectorOf(i: number): Float32Array {
  return Float32Array.from({ length: DIMENSION }, (_, d) => Math.sin(i * 0.37 + d * 1.3) + (d === i % DIMENSION ? 0.5 : 0));
}
const QUERY = Float32Array.from({ length: DIMENSION }, (_, d) => Math.cos(d * 0.7));

before(() => {
  dir = mkdtempSync(join(tmpdir(), 'memsvc-scan-'));
  file = join(dir, 'memsvc.db');
  db = openSqliteDatabase(file);
  const now = '2026-06-01T00:00:00.000Z';
  const conversation = db.prepare(`INSERT INTO conversations (id, label, folder, status, created_at, updated_at, last_accessed_at)
    VALUES (?, 'notes', ?, ?, ?, ?, ?)`);
  const message = db.prepare(`INSERT INTO messages (seq, id, conversation_id, position, role, content, timestamp)
    VALUES (?, ?, ?, ?, 'user', 'text', ?)`);
  const vector = db.prepare('INSERT INTO message_vectors (message_seq, model, vector) VALUES (?, ?, ?)');
  db.transaction(() => {
    for (let c = 0; c < MESSAGES / 10; c += 1) {
      conversation.run(`c${c}`, c % 3 === 0 ? '/work/a' : '/home', c % 7 === 0 ? 'archived' : 'active', now, now, now);
    }
    for (let i = 1; i <= MESSAGES; i += 1) {
      const c = Math.floor((i - 1) / 10);
      message.run(i, `m${i}`, `c${c}`, (i - 1) % 10, now);
      vector.run(i, 'test-model', Buffer.from(vectorOf(i).buffer));
    }
  })();
});

after(() => {
  db.close();
  rmSync(dir, { recursive: true, force: true });
});

const keysOf = (ranking: ScoredKey[]) => ranking.map((item) => item.key);

/** Reads on the request thread's connection, counting how many were asked of it. */
function countedHere(): { reads: FilterReads; count: () => number } {
  const here = filterReadsOn(db);
  let count = 0;
  return {
    reads: {
      scan: (...args) => { count += 1; return here.scan(...args); },
      rerank: (...args) => { count += 1; return here.rerank(...args); },
      admit: (...args) => { count += 1; return here.admit(...args); },
    },
    count: () => count,
  };
}
const refusing: FilterReads = {
  scan: () => Promise.reject(new Error('the thread should answer')),
  rerank: () => Promise.reject(new Error('the thread should answer')),
  admit: () => Promise.reject(new Error('the thread should answer')),
};

test('the filter-read thread ranks exactly as a scan on the request thread, under every filter', async () => {
  const here = filterReadsOn(db).scan;
  const thread = new SqliteFilterReadThread(file, refusing);
  try {
    assert.equal(await thread.warmUp(), true);
    for (const filter of [{}, { folder: '/work' }, { archived: false }, { folder: '/work', archived: false, excludedFolders: ['/home'] }]) {
      const expected = await here(QUERY, filter, 4000, 10);
      const actual = await thread.scan(QUERY, filter, 4000, 10);
      assert.equal(actual.length, 10, JSON.stringify(filter));
      assert.deepEqual(keysOf(actual), keysOf(expected), JSON.stringify(filter));
      assert.deepEqual(actual.map((item) => item.score), expected.map((item) => item.score));
    }
    // Only what the filter admits: conversation c is in /work/a when c % 3 is 0, archived when c % 7 is 0.
    const archivedOnly = await thread.scan(QUERY, { folder: '/work', archived: true }, 4000, 50);
    assert.ok(archivedOnly.length > 0);
    for (const key of keysOf(archivedOnly)) {
      const c = Math.floor((key - 1) / 10);
      assert.ok(c % 3 === 0 && c % 7 === 0, `message ${key} is in conversation c${c}`);
    }
  } finally {
    await thread.close();
  }
});

test('the filter-read thread re-ranks candidates exactly as the request thread, and drops keys without a vector', async () => {
  const here = filterReadsOn(db).rerank;
  const thread = new SqliteFilterReadThread(file, refusing);
  try {
    assert.equal(await thread.warmUp(), true);
    const candidates = [250, 7, 131, 42, 299, 1, 88, 160, 3, 77, 204, 15];
    for (const depth of [1, 5, candidates.length]) {
      const expected = await here(QUERY, candidates, depth);
      const actual = await thread.rerank(QUERY, candidates, depth);
      assert.equal(actual.length, depth);
      assert.deepEqual(actual, expected, `depth ${depth}`);
    }
    // The exact order: every candidate's product with the query, best first.
    const dot = (key: number) => vectorOf(key).reduce((sum, value, d) => sum + value * QUERY[d]!, 0);
    const byProduct = [...candidates].sort((a, b) => dot(b) - dot(a) || a - b);
    assert.deepEqual(keysOf(await thread.rerank(QUERY, candidates, candidates.length)), byProduct);
    // A key whose message (and vector) is gone is not ranked.
    assert.deepEqual(keysOf(await thread.rerank(QUERY, [5, 100_000, 6], 3)).sort((a, b) => a - b), [5, 6]);
  } finally {
    await thread.close();
  }
});

test('the thread starts on the first read, which the request thread answers meanwhile', async () => {
  const here = filterReadsOn(db).scan;
  const counted = countedHere();
  const thread = new SqliteFilterReadThread(file, counted.reads);
  try {
    const first = await thread.scan(QUERY, { folder: '/work' }, 4000, 5);
    assert.equal(counted.count(), 1);
    assert.deepEqual(keysOf(first), keysOf(await here(QUERY, { folder: '/work' }, 4000, 5)));
    assert.equal(await thread.warmUp(), true, 'the first scan started the thread');
    assert.deepEqual(keysOf(await thread.scan(QUERY, { folder: '/work' }, 4000, 5)), keysOf(first));
    await thread.rerank(QUERY, [1, 2, 3], 2);
    assert.equal(counted.count(), 1, 'later reads run on the thread');
  } finally {
    await thread.close();
  }
});

test('a filter-read thread that cannot open its database leaves the reads to the request thread', async () => {
  const here = filterReadsOn(db);
  const counted = countedHere();
  const thread = new SqliteFilterReadThread(join(dir, 'missing', 'nested', 'memsvc.db'), counted.reads);
  try {
    assert.equal(await thread.warmUp(), false);
    for (let i = 0; i < 2; i += 1) {
      const answer = await thread.scan(QUERY, { folder: '/work' }, 4000, 5);
      assert.deepEqual(keysOf(answer), keysOf(await here.scan(QUERY, { folder: '/work' }, 4000, 5)));
    }
    assert.deepEqual(await thread.rerank(QUERY, [1, 2, 3], 2), await here.rerank(QUERY, [1, 2, 3], 2));
    assert.equal(counted.count(), 3);
  } finally {
    await thread.close();
  }
});

test('once closed, reads stay on the request thread and start no thread', async () => {
  const here = filterReadsOn(db).scan;
  const counted = countedHere();
  for (const started of [false, true]) {
    const thread = new SqliteFilterReadThread(file, counted.reads);
    if (started) assert.equal(await thread.warmUp(), true);
    await thread.close();
    const before = counted.count();
    const answer = await thread.scan(QUERY, { folder: '/work' }, 4000, 5);
    assert.deepEqual(keysOf(answer), keysOf(await here(QUERY, { folder: '/work' }, 4000, 5)));
    await thread.rerank(QUERY, [1, 2, 3], 2);
    assert.equal(counted.count(), before + 2, `started before close: ${started}`);
    assert.equal(await thread.warmUp(), false, 'no thread is started after close');
  }
});

test('the thread starts once a loaded index holds more vectors than an exact scan may read, not for a smaller one', async () => {
  const warmUps: number[] = [];
  const thread = { warmUp: async () => { warmUps.push(1); return true; } };
  const index = (size: number, loaded: Promise<unknown> = Promise.resolve(true)) => ({ loaded, size: () => size });
  assert.equal(await warmUpForLargeIndex(index(4001), thread, 4000), true);
  assert.equal(warmUps.length, 1);
  assert.equal(await warmUpForLargeIndex(index(4000), thread, 4000), false, 'a store an exact scan covers waits for its first search');
  assert.equal(await warmUpForLargeIndex(index(1_000_000, Promise.reject(new Error('no graph'))), thread, 4000), false);
  assert.equal(warmUps.length, 1);
  // Its size is read once loaded, not before: a saved graph of a million vectors reports 0 until then.
  let size = 0;
  let load!: () => void;
  const loading = { loaded: new Promise<void>((resolve) => { load = resolve; }), size: () => size };
  const started = warmUpForLargeIndex(loading, thread, 4000);
  size = 1_000_000;
  load();
  assert.equal(await started, true);
  assert.equal(warmUps.length, 2);
});

test('a store larger than an exact scan starts the filter-read thread when its index loads', async () => {
  const thread = new SqliteFilterReadThread(file, filterReadsOn(db));
  try {
    assert.equal(await warmUpForLargeIndex({ loaded: Promise.resolve(true), size: () => MESSAGES }, thread, 100), true,
      'the real thread opened its connection');
    // The started thread answers as the request thread would.
    const here = await filterReadsOn(db).scan(QUERY, { folder: '/work' }, 1000, 10);
    assert.deepEqual((await thread.scan(QUERY, { folder: '/work' }, 1000, 10)).map((hit) => hit.key), here.map((hit) => hit.key));
  } finally {
    await thread.close();
  }
});
