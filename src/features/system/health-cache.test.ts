import { test } from 'node:test';
import assert from 'node:assert/strict';
import { CachedValue } from './health-cache.js';

const clockAt = (start: number) => {
  let now = start;
  return { clock: { now: () => new Date(now) }, advance: (ms: number) => { now += ms; } };
};

test('a value is computed once within the window and again after it', async () => {
  const { clock, advance } = clockAt(0);
  let runs = 0;
  const cached = new CachedValue(async () => ++runs, 1000, clock);
  assert.equal(await cached.get(), 1);
  advance(999);
  assert.equal(await cached.get(), 1);
  advance(1);
  assert.equal(await cached.get(), 2);
});

test('callers arriving while it is computed share the one computation', async () => {
  const { clock } = clockAt(0);
  let runs = 0;
  let release!: () => void;
  const gate = new Promise<void>((resolve) => { release = resolve; });
  const cached = new CachedValue(async () => { runs += 1; await gate; return runs; }, 0, clock);
  const answers = [cached.get(), cached.get(), cached.get()];
  release();
  assert.deepEqual(await Promise.all(answers), [1, 1, 1]);
  assert.equal(runs, 1);
});

test('a failed computation is not kept', async () => {
  const { clock } = clockAt(0);
  let fail = true;
  const cached = new CachedValue(async () => { if (fail) throw new Error('down'); return 'up'; }, 1000, clock);
  await assert.rejects(cached.get(), /down/);
  fail = false;
  assert.equal(await cached.get(), 'up');
});

test('a value can set how long it is kept: a bad report goes sooner than a good one', async () => {
  const { clock, advance } = clockAt(0);
  let state = 'down';
  let runs = 0;
  const cached = new CachedValue(async () => { runs += 1; return state; }, (value) => (value === 'up' ? 1000 : 100), clock);
  assert.equal(await cached.get(), 'down');
  state = 'up';
  advance(99);
  assert.equal(await cached.get(), 'down');
  advance(1);
  assert.equal(await cached.get(), 'up');
  state = 'down';
  advance(999);
  assert.equal(await cached.get(), 'up');
  assert.equal(runs, 2);
});
