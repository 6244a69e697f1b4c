import { test } from 'node:test';
import assert from 'node:assert/strict';
import { indexCandidates, unfilteredCandidates } from './graph-candidates.js';

test('no filter: the depth and 16 more, or depth x search.rerank_oversample and 16 more; never more than the index holds', () => {
  assert.equal(indexCandidates(100, 1_000_000, 1_000_000), 116);
  assert.equal(unfilteredCandidates(100, 1_000_000), 116);
  assert.equal(unfilteredCandidates(100, 1_000_000, 2), 216);
  assert.equal(unfilteredCandidates(100, 1_000_000, 1.5), 166);
  assert.equal(unfilteredCandidates(100, 150, 2), 150);
});

test('a filter admitting at most half the vectors: twice the expected share', () => {
  assert.equal(indexCandidates(100, 1_000_000, 500_000), 416);
  assert.equal(indexCandidates(100, 1_000_000, 100_000), 2_016);
});

test('a filter admitting nearly all: headroom shrinks to nothing, where a capped count once asked for 20 times more', () => {
  assert.equal(indexCandidates(200, 1_000_000, 990_000), Math.ceil((200 * 1.02) / 0.99) + 16);
  assert.ok(indexCandidates(200, 1_000_000, 990_000) < indexCandidates(200, 1_000_000, 100_000) / 10);
});

test('fewer admitted never asks for fewer candidates, and never more than the bound or the index holds', () => {
  let previous = 0;
  for (let matching = 1_000_000; matching >= 1; matching = Math.floor(matching * 0.9)) {
    const wanted = indexCandidates(100, 1_000_000, matching);
    assert.ok(wanted >= previous, `matching ${matching}: ${wanted} >= ${previous}`);
    assert.ok(wanted <= 4_000);
    previous = wanted;
  }
  assert.equal(indexCandidates(100, 50, 10), 50);
});

