import { test } from 'node:test';
import assert from 'node:assert/strict';
import { fuseRankings, KEYWORD_WEIGHT } from './hybrid-fusion.js';

const keyword = [{ id: 'a', score: 8 }, { id: 'b', score: 4 }];
const dense = [{ id: 'b', score: 0.9 }, { id: 'c', score: 0.45 }];

test('weighted sum scales each list by its best score and weights the sides', () => {
  const fused = fuseRankings(keyword, dense, { method: 'weighted-sum', keywordWeight: 0.5 });
  assert.deepEqual(fused, [{ id: 'b', score: 0.75 }, { id: 'a', score: 0.5 }, { id: 'c', score: 0.25 }]);
});

test('the default favours keywords and keeps scores in 0..1, sorted descending', () => {
  assert.ok(KEYWORD_WEIGHT > 0.5 && KEYWORD_WEIGHT <= 1);
  const fused = fuseRankings(keyword, dense);
  // a: 0.8 * 1 = 0.8; b: 0.8 * 0.5 + 0.2 * 1 = 0.6; c: 0.2 * 0.5 = 0.1.
  assert.deepEqual(fused.map((hit) => hit.id), ['a', 'b', 'c']);
  for (const hit of fused) assert.ok(hit.score >= 0 && hit.score <= 1);
  for (let i = 1; i < fused.length; i += 1) assert.ok(fused[i - 1]!.score >= fused[i]!.score);
});

test('rrf uses ranks only and normalizes the top possible score to 1', () => {
  const fused = fuseRankings([{ id: 'x', score: 100 }], [{ id: 'x', score: 0.1 }], { method: 'rrf', keywordWeight: 0.5 });
  assert.deepEqual(fused, [{ id: 'x', score: 1 }]);
});

test('empty or one-sided inputs work and limit truncates', () => {
  assert.deepEqual(fuseRankings([], []), []);
  assert.deepEqual(fuseRankings([], dense, { keywordWeight: 0.5, limit: 1 }), [{ id: 'b', score: 0.5 }]);
});

test('ties break by id so results are deterministic', () => {
  const fused = fuseRankings([{ id: 'z', score: 1 }], [{ id: 'y', score: 1 }], { keywordWeight: 0.5 });
  assert.deepEqual(fused.map((hit) => hit.id), ['y', 'z']);
});
