import { test } from 'node:test';
import assert from 'node:assert/strict';
import { exactTopK, exactTopKPacked } from './exact-search.js';

function unit(values: number[]): Float32Array {
  const norm = Math.hypot(...values);
  return Float32Array.from(values, (v) => v / norm);
}

test('packed vectors rank exactly as one array per vector: same keys, scores and tie order', () => {
  let seed = 7;
  const random = () => { seed = (seed * 1103515245 + 12345) % 2 ** 31; return seed / 2 ** 31 - 0.5; };
  const dimension = 24;
  const candidates = Array.from({ length: 500 }, (_, i) => ({ key: 1000 - i, vector: unit(Array.from({ length: dimension }, random)) }));
  // Ties: the same vector under several keys must come out in key order.
  for (const key of [5, 3, 9]) candidates.push({ key, vector: candidates[0]!.vector });
  const keys = candidates.map((c) => c.key);
  const matrix = new Float32Array(candidates.length * dimension);
  candidates.forEach((c, row) => matrix.set(c.vector, row * dimension));
  for (let q = 0; q < 5; q += 1) {
    const query = q === 0 ? candidates[0]!.vector : unit(Array.from({ length: dimension }, random));
    for (const k of [1, 10, 100, 2000]) {
      assert.deepEqual(exactTopKPacked(query, { keys, matrix, dimension }, k), exactTopK(query, candidates, k));
    }
  }
  const best = exactTopKPacked(candidates[0]!.vector, { keys, matrix, dimension }, 4).map((item) => item.key);
  assert.deepEqual(best, [3, 5, 9, 1000]);
  assert.deepEqual(exactTopKPacked(candidates[0]!.vector, { keys: [], matrix: new Float32Array(0), dimension }, 10), []);
});
