import { test } from 'node:test';
import assert from 'node:assert/strict';
import { reopenDelayMs } from './vector-index.holder.js';

test('a failed index is opened again after 1 s, twice as long after each further failure, never more than 60 s apart', () => {
  assert.deepEqual([1, 2, 3, 4, 5, 6].map(reopenDelayMs), [1000, 2000, 4000, 8000, 16000, 32000]);
  assert.equal(reopenDelayMs(7), 60_000);
  assert.equal(reopenDelayMs(50), 60_000);
});
