import { test } from 'node:test';
import assert from 'node:assert/strict';
import { centroidsHolding, twoColouring } from './centroids.js';

const unit = (d: number) => Float32Array.from({ length: 4 }, (_, i) => (i === d ? 1 : 0));
const rows = (dims: number[]) => {
  const matrix = new Float32Array(dims.length * 4);
  dims.forEach((d, i) => matrix.set(unit(d), i * 4));
  return matrix;
};
const CENTROIDS = { matrix: rows([0, 1, 2, 3]), dimension: 4 };

test('the centroids nearest at least the given share of the rows, and only those', () => {
  // 60 rows by centroid 0, 39 by centroid 2, 1 by centroid 3.
  const sample = rows([...Array(60).fill(0), ...Array(39).fill(2), 3]);
  assert.deepEqual([...centroidsHolding(CENTROIDS, sample, 0.01)].sort(), [0, 2, 3]);
  assert.deepEqual([...centroidsHolding(CENTROIDS, sample, 0.02)].sort(), [0, 2], 'one row in a hundred is less than 2%');
  assert.deepEqual([...centroidsHolding(CENTROIDS, sample, 0.5)], [0]);
});

test('a single row names its centroid whatever the share', () => {
  assert.deepEqual([...centroidsHolding(CENTROIDS, rows([1]), 0.01)], [1]);
});

test('two threads: the centroids nearest each other go to different threads', () => {
  // Four pairs of near centroids (each pair about one axis of 8), given in an order that alternating colours would not split.
  const dimension = 8;
  const pairs = [0, 2, 4, 6];
  const order = [0, 2, 4, 6, 1, 3, 5, 7].map((i) => ({ axis: pairs[Math.floor(i / 2)]!, tilt: i % 2 }));
  const matrix = new Float32Array(order.length * dimension);
  order.forEach(({ axis, tilt }, row) => {
    matrix[row * dimension + axis] = 0.95;
    matrix[row * dimension + axis + 1] = tilt === 0 ? 0.31 : -0.31;
  });
  const colour = twoColouring({ matrix, dimension });
  for (let a = 0; a < order.length; a += 1) {
    for (let b = a + 1; b < order.length; b += 1) {
      if (order[a]!.axis === order[b]!.axis) assert.notEqual(colour[a], colour[b], `pair on axis ${order[a]!.axis}`);
    }
  }
  assert.deepEqual(twoColouring({ matrix, dimension }), colour, 'the same every time');
});
