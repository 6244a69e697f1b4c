import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Database } from 'better-sqlite3';
import type { ScoredKey } from '../../domain/search.js';
import type { VectorIndex } from '../../ports/vector-index.js';
import { openSqliteDatabase } from './sqlite-database.js';
import { vectorToBlob } from './sqlite-embedding.queue.js';
import { indexCandidates, SqliteVectorSearch } from './sqlite-vector-search.js';

test('no filter: the depth and 16 more', () => {
  assert.equal(indexCandidates(100, 1_000_000, 1_000_000), 116);
});

test('a filter admitting at most half the vectors: twice the expected share', () => {
  assert.equal(indexCandidates(100, 1_000_000, 500_000), 416);
  assert.equal(indexCandidates(100, 1_000_000, 100_000), 2_016);
});

test('a filter admitting nearly all: headroom shrinks to nothing, where a capped count once asked for 20 times more', () => {
  assert.equal(indexCandidates(200, 1_000_000, 990_000), Math.ceil((200 * 1.02) / 0.99) + 16);
  assert.ok(indexCandidates(200, 1_000_000, 990_000) < indexCandidates(200, 1_000_000, 100_000) / 10);
});

test('fewer admitted never asks for fewer candidates, and never more than the bound or the index holds', () => {
  let previous = 0;
  for (let matching = 1_000_000; matching >= 1; matching = Math.floor(matching * 0.9)) {
    const wanted = indexCandidates(100, 1_000_000, matching);
    assert.ok(wanted >= previous, `matching ${matching}: ${wanted} >= ${previous}`);
    assert.ok(wanted <= 4_000);
    previous = wanted;
  }
  assert.equal(indexCandidates(100, 50, 10), 50);
});

/**
 * A graph that routes the query into the wrong region: it answers with the far messages only. The keys the
 * caller also ranks (the full text's matches) are scored exactly beside them, and must pass the filter.
 */
describe('alsoRank: keys scored beside a graph that misses', () => {
  const vectors: Record<string, number[]> = {
    near: [1, 0.1, 0], nearer: [1, 0.05, 0], far: [0, 1, 0], farther: [0, 0, 1], elsewhere: [1, 0, 0.02],
  };
  const folders: Record<string, string> = { near: '/a', nearer: '/a', far: '/a', farther: '/a', elsewhere: '/b' };
  let db: Database;
  const keyOf = new Map<string, number>();
  const misrouted: VectorIndex = {
    dimension: 3, size: () => 5, waiting: () => 0,
    search: async () => ['far', 'farther'].map((name) => ({ key: keyOf.get(name)!, score: 0 })),
    add: async () => {}, flush: async () => {}, remove: async () => {}, missing: async () => [], save: async () => {},
    clear: async () => {}, close: async () => {},
  };
  const search = () => new SqliteVectorSearch(db, () => misrouted, { exactMaxCandidates: 0 });
  const names = (found: ScoredKey[]) => found.map((item) => [...keyOf].find(([, key]) => key === item.key)![0]);

  before(() => {
    db = openSqliteDatabase(':memory:');
    const now = '2026-05-01T00:00:00.000Z';
    for (const [position, name] of Object.keys(vectors).entries()) {
      const conversation = `c-${name}`;
      db.prepare(`INSERT INTO conversations (id, label, folder, created_at, updated_at, last_accessed_at)
        VALUES (?, 'chat', ?, ?, ?, ?)`).run(conversation, folders[name], now, now, now);
      const { lastInsertRowid } = db.prepare(`INSERT INTO messages (id, conversation_id, position, role, content, timestamp)
        VALUES (?, ?, 0, 'user', ?, ?)`).run(`m-${position}`, conversation, name, now);
      keyOf.set(name, Number(lastInsertRowid));
      db.prepare('INSERT INTO message_vectors (message_seq, model, vector) VALUES (?, ?, ?)')
        .run(Number(lastInsertRowid), 'test', vectorToBlob(normalized(vectors[name]!)));
    }
  });
  after(() => db.close());

  test('without them, only what the graph found; with them, the exact best of both', async () => {
    const query = normalized([1, 0.1, 0]);
    assert.deepEqual(names(await search().nearest(query, {}, 2)), ['far', 'farther']);
    assert.deepEqual(names(await search().nearest(query, {}, 2, [keyOf.get('nearer')!, keyOf.get('near')!])), ['near', 'nearer']);
    const all = await search().nearest(query, {}, 10, [keyOf.get('near')!, keyOf.get('far')!, keyOf.get('near')!]);
    assert.deepEqual(names(all), ['near', 'far', 'farther'], 'each key once, by cosine');
    assert.ok(all.every((item, i) => i === 0 || item.score <= all[i - 1]!.score));
  });

  test('under a filter, a key it refuses is dropped, as is a key with no stored vector', async () => {
    const query = normalized([1, 0.1, 0.02]);
    const found = await search().nearest(query, { folder: '/a' }, 3, [keyOf.get('elsewhere')!, keyOf.get('near')!, 999_999]);
    assert.deepEqual(names(found), ['near', 'far', 'farther']);
    assert.deepEqual(names(await search().nearest(query, {}, 1, [keyOf.get('elsewhere')!, 999_999])), ['elsewhere']);
  });
});

function normalized(values: number[]): Float32Array {
  const norm = Math.hypot(...values);
  return Float32Array.from(values, (value) => value / norm);
}
