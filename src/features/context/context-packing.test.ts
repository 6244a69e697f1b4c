import { test } from 'node:test';
import assert from 'node:assert/strict';
import { availableTokens, contentKey, packGreedy } from './context-packing.js';

test('15% of the budget is kept for the system prompt', () => {
  assert.equal(availableTokens(4000), 3400);
  assert.equal(availableTokens(1000), 850);
  assert.equal(availableTokens(101), 85);
});

test('greedy packing keeps ranked items that fit, skips what does not, and never exceeds the capacity', () => {
  const items = [5, 50, 3, 2, 10, 1].map((size, i) => ({ id: i, size }));
  const packed = packGreedy(items, 12, { cost: (item) => item.size });
  assert.deepEqual(packed.items.map((item) => item.id), [0, 2, 3, 5]);
  assert.equal(packed.tokens, 11);
});

test('packing never exceeds the capacity on random inputs', () => {
  let seed = 7;
  const random = () => { seed = (seed * 1103515245 + 12345) % 2 ** 31; return seed / 2 ** 31; };
  for (let round = 0; round < 200; round += 1) {
    const items = Array.from({ length: 1 + Math.floor(random() * 40) }, () => ({ cost: Math.floor(random() * 300) }));
    const capacity = availableTokens(100 + Math.floor(random() * 4000));
    const packed = packGreedy(items, capacity, { cost: (item) => item.cost });
    const used = packed.items.reduce((sum, item) => sum + item.cost, 0);
    assert.equal(used, packed.tokens);
    assert.ok(used <= capacity);
    // Greedy: every skipped item was too large for what was left when its turn came.
    let left = capacity;
    for (const item of items) {
      if (packed.items.includes(item)) left -= item.cost;
      else assert.ok(item.cost > left || left <= 0);
    }
  }
});

test('duplicates by key are packed once, the better-ranked one', () => {
  const items = [{ id: 'a', text: 'Hello  World' }, { id: 'b', text: 'hello world ' }, { id: 'c', text: 'other' }];
  const packed = packGreedy(items, 100, { cost: () => 1, dedupeKey: (item) => contentKey(item.text) });
  assert.deepEqual(packed.items.map((item) => item.id), ['a', 'c']);
});

test('an empty capacity packs nothing; zero-cost items still need room', () => {
  assert.deepEqual(packGreedy([{ cost: 0 }], 0, { cost: (item) => item.cost }).items, []);
});
