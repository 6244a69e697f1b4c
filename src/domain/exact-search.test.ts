import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { ScoredKey } from './search.js';
import { exactTopK, packVectors } from './exact-search.js';

function unit(values: number[]): Float32Array {
  const norm = Math.hypot(...values);
  return Float32Array.from(values, (v) => v / norm);
}

/** The plain definition, one vector at a time: what the packed scan must equal. */
function reference(query: Float32Array, candidates: ReadonlyArray<{ key: number; vector: Float32Array }>, k: number): ScoredKey[] {
  return candidates
    .map(({ key, vector }) => {
      let dot = 0;
      for (let i = 0; i < vector.length; i += 1) dot += vector[i]! * query[i]!;
      return { key, score: dot };
    })
    .sort((a, b) => b.score - a.score || a.key - b.key)
    .slice(0, k);
}

test('packed vectors rank exactly as one array per vector: same keys, scores and tie order', () => {
  let seed = 7;
  const random = () => { seed = (seed * 1103515245 + 12345) % 2 ** 31; return seed / 2 ** 31 - 0.5; };
  const dimension = 24;
  const candidates = Array.from({ length: 500 }, (_, i) => ({ key: 1000 - i, vector: unit(Array.from({ length: dimension }, random)) }));
  // Ties: the same vector under several keys must come out in key order.
  for (const key of [5, 3, 9]) candidates.push({ key, vector: candidates[0]!.vector });
  const packed = packVectors(candidates, dimension);
  for (let q = 0; q < 5; q += 1) {
    const query = q === 0 ? candidates[0]!.vector : unit(Array.from({ length: dimension }, random));
    for (const k of [1, 10, 100, 2000]) {
      assert.deepEqual(exactTopK(query, packed, k), reference(query, candidates, k));
    }
  }
  const best = exactTopK(candidates[0]!.vector, packed, 4).map((item) => item.key);
  assert.deepEqual(best, [3, 5, 9, 1000]);
  assert.deepEqual(exactTopK(candidates[0]!.vector, { keys: [], matrix: new Float32Array(0), dimension }, 10), []);
});
