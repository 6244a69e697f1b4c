import { test } from 'node:test';
import assert from 'node:assert/strict';
import { scansExactly } from './sqlite-vector-search.js';

test('a filter is scanned exactly when it admits few, or when the graph\'s capped candidates would pass fewer than the depth', () => {
  assert.equal(scansExactly(100, 1_000_000, 4_000, 4_000), true, 'at most exact_max_candidates: always');
  // A 1% folder at a million: 4,000 candidates, about 40 expected to pass, under the depth of 100.
  assert.equal(scansExactly(100, 1_000_000, 10_100, 4_000), true);
  assert.equal(scansExactly(100, 1_000_000, 16_000, 4_000), true);
  assert.equal(scansExactly(100, 1_000_000, 16_001, 4_000), false, 'never more than four times exact_max_candidates');
  // A 10% folder at 100,000: 2,016 candidates, about 211 expected to pass: the graph serves it.
  assert.equal(scansExactly(100, 100_000, 10_500, 4_000), false);
  assert.equal(scansExactly(100, 1_000_000, 10_100, 0), false, 'exact_max_candidates 0 turns scans off');
});
