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

test('a group\'s shared cost is paid once, by the item that opens it', () => {
  const items = [
    { id: 'a1', group: 'a', size: 3 }, { id: 'b1', group: 'b', size: 3 }, { id: 'a2', group: 'a', size: 3 },
    { id: 'a3', group: 'a', size: 3 },
  ];
  const options = { cost: (item: typeof items[number]) => item.size, group: { key: (item: typeof items[number]) => item.group, cost: () => 4 } };
  // a1 7, b1 7 (14), a2 3 (17), a3 3 (20): a header of 4 is paid by a1 and b1 only.
  assert.deepEqual(packGreedy(items, 20, options).items.map((item) => item.id), ['a1', 'b1', 'a2', 'a3']);
  assert.equal(packGreedy(items, 20, options).tokens, 20);
  // With room for 13, b1 and its header do not fit after a1 (7 + 3 + 4 > 13), but a's later items do.
  assert.deepEqual(packGreedy(items, 13, options).items.map((item) => item.id), ['a1', 'a2', 'a3']);
});
