import { test } from 'node:test';
import assert from 'node:assert/strict';
import { centroidsHolding } from './centroids.js';

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
