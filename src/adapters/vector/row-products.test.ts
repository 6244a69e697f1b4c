import { test } from 'node:test';
import assert from 'node:assert/strict';
import { rowProducts } from './row-products.js';

test('rowProducts gives every row times every other row, in order', () => {
  const rows = Float32Array.from([1, 2, 0, 0, 1, 3]);
  const by = Float32Array.from([1, 0, 0, 0, 1, 0, 0, 0, 1, 1, 1, 1]);
  assert.deepEqual([...rowProducts(rows, by, 3)], [1, 2, 0, 3, 0, 1, 3, 4]);
});

test('rowProducts of no rows, or by no rows, is empty', () => {
  assert.equal(rowProducts(new Float32Array(0), Float32Array.from([1, 2, 3]), 3).length, 0);
  assert.equal(rowProducts(Float32Array.from([1, 2, 3]), new Float32Array(0), 3).length, 0);
});
