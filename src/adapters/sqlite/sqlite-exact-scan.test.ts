import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Database } from 'better-sqlite3';
import type { ScoredKey } from '../../domain/search.js';
import { openSqliteDatabase } from './sqlite-database.js';
import { exactScanOn, SqliteScanThread, type ExactScan } from './sqlite-exact-scan.js';

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

test('the scan thread ranks exactly as a scan on the request thread, under every filter', async () => {
  const here = exactScanOn(db);
  const thread = new SqliteScanThread(file, () => Promise.reject(new Error('the thread should answer')));
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

test('the thread starts on the first scan, which the request thread answers meanwhile', async () => {
  const here = exactScanOn(db);
  let fallbacks = 0;
  const thread = new SqliteScanThread(file, (...args: Parameters<ExactScan>) => { fallbacks += 1; return here(...args); });
  try {
    const first = await thread.scan(QUERY, { folder: '/work' }, 4000, 5);
    assert.equal(fallbacks, 1);
    assert.deepEqual(keysOf(first), keysOf(await here(QUERY, { folder: '/work' }, 4000, 5)));
    assert.equal(await thread.warmUp(), true, 'the first scan started the thread');
    assert.deepEqual(keysOf(await thread.scan(QUERY, { folder: '/work' }, 4000, 5)), keysOf(first));
    assert.equal(fallbacks, 1, 'later scans run on the thread');
  } finally {
    await thread.close();
  }
});

test('a scan thread that cannot open its database leaves the scans to the request thread', async () => {
  const here = exactScanOn(db);
  let fallbacks = 0;
  const thread = new SqliteScanThread(join(dir, 'missing', 'nested', 'memsvc.db'), (...args: Parameters<ExactScan>) => {
    fallbacks += 1;
    return here(...args);
  });
  try {
    assert.equal(await thread.warmUp(), false);
    for (let i = 0; i < 2; i += 1) {
      const answer = await thread.scan(QUERY, { folder: '/work' }, 4000, 5);
      assert.deepEqual(keysOf(answer), keysOf(await here(QUERY, { folder: '/work' }, 4000, 5)));
    }
    assert.equal(fallbacks, 2);
  } finally {
    await thread.close();
  }
});

test('once closed, scans stay on the request thread and start no thread', async () => {
  const here = exactScanOn(db);
  let fallbacks = 0;
  const fallback: ExactScan = (...args) => { fallbacks += 1; return here(...args); };
  for (const started of [false, true]) {
    const thread = new SqliteScanThread(file, fallback);
    if (started) assert.equal(await thread.warmUp(), true);
    await thread.close();
    const before = fallbacks;
    const answer = await thread.scan(QUERY, { folder: '/work' }, 4000, 5);
    assert.deepEqual(keysOf(answer), keysOf(await here(QUERY, { folder: '/work' }, 4000, 5)));
    assert.equal(fallbacks, before + 1, `started before close: ${started}`);
    assert.equal(await thread.warmUp(), false, 'no thread is started after close');
  }
});
