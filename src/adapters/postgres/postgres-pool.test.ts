import { test } from 'node:test';
import assert from 'node:assert/strict';
import { fromVectorBytes, toVectorBytes, vectorArray, vectorParts } from './postgres-pool.js';

test('a vector goes to pgvector\'s binary form and back unchanged: dimension, spare field, big-endian float4s', () => {
  const vector = Float32Array.from([1 / 3, -2.5, 1.1754943508222875e-38]);
  const bytes = toVectorBytes(vector);
  assert.equal(bytes.length, 4 + 4 * 3);
  assert.deepEqual([bytes.readInt16BE(0), bytes.readInt16BE(2), bytes.readFloatBE(8)], [3, 0, -2.5]);
  assert.deepEqual(fromVectorBytes(bytes), vector);
  // A view into a larger buffer (as a batch's vectors are) is read from its own offset.
  const shared = new Float32Array([9, 1, 2, 3]);
  assert.deepEqual(fromVectorBytes(toVectorBytes(shared.subarray(1))), Float32Array.from([1, 2, 3]));
});

test('vectors are split into parts a statement can take, one parameter each', () => {
  assert.deepEqual(vectorParts([]), []);
  assert.deepEqual(vectorParts(Array(8192).fill(0)).map((part) => part.length), [8192]);
  assert.deepEqual(vectorParts(Array(20_000).fill(0)).map((part) => part.length), [8192, 8192, 3616]);
  assert.equal(vectorArray(3, 4), 'ARRAY[$4::vector, $5::vector, $6::vector]');
});
