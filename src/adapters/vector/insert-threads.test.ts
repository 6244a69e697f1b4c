import { test } from 'node:test';
import assert from 'node:assert/strict';
import { eventLoopBusySince, insertThreads } from './insert-threads.js';

test('inserts use every core while the event loop idles, every core but one while it serves, 1 to 4 threads', () => {
  assert.equal(insertThreads(2, 0.1), 2);
  assert.equal(insertThreads(2, 0.9), 1);
  assert.equal(insertThreads(8, 0.2), 4, 'at most 4');
  assert.equal(insertThreads(8, 0.9), 4);
  assert.equal(insertThreads(4, 0.9), 3);
  assert.equal(insertThreads(1, 0.0), 1);
  assert.equal(insertThreads(1, 1.0), 1, 'never fewer than one');
});

test('the busy share follows what the event loop did since the last call', async () => {
  const busy = eventLoopBusySince();
  const spinUntil = performance.now() + 60;
  while (performance.now() < spinUntil) { /* a busy loop */ }
  const spun = busy();
  await new Promise((resolve) => setTimeout(resolve, 120));
  const idled = busy();
  assert.ok(spun > 0.5, `busy while spinning: ${spun}`);
  assert.ok(idled < spun, `less busy while waiting: ${idled} < ${spun}`);
});
