import { test } from 'node:test';
import assert from 'node:assert/strict';
import { propagateNeighbourScores } from './neighbour-propagation.js';

// A conversation m1 - m2 - m3 - m4 - m5.
const order = ['m1', 'm2', 'm3', 'm4', 'm5'];
const neighboursOf = (id: string): string[] => {
  const i = order.indexOf(id);
  return [order[i - 1], order[i + 1]].filter((x): x is string => x !== undefined);
};

test('a reply next to a strong hit outranks an isolated stronger-scored hit', () => {
  const hits = [{ id: 'm2', score: 1 }, { id: 'm3', score: 0.5 }, { id: 'm5', score: 0.6 }];
  const result = propagateNeighbourScores(hits, neighboursOf, 0.3);
  assert.deepEqual(result.map((hit) => hit.id), ['m2', 'm3', 'm5', 'm4', 'm1']);
  assert.equal(result[0]!.score, 1);
  // m3 = 0.5 + 0.3 * 1 = 0.8 before scaling by m2's 1 + 0.3 * 0.5 = 1.15.
  assert.ok(Math.abs(result[1]!.score - 0.8 / 1.15) < 1e-12);
});

test('weight 0 keeps the order and only adds neighbours at score 0', () => {
  const result = propagateNeighbourScores([{ id: 'm3', score: 2 }], neighboursOf, 0);
  assert.deepEqual(result, [{ id: 'm3', score: 1 }, { id: 'm2', score: 0 }, { id: 'm4', score: 0 }]);
});

test('empty input gives empty output', () => {
  assert.deepEqual(propagateNeighbourScores([], neighboursOf), []);
});
