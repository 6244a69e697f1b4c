import { test } from 'node:test';
import assert from 'node:assert/strict';
import { RequestOrder } from './request-order.js';

test('changes run one after another; reads wait for the opening, not for other changes; close runs at once', async () => {
  const order = new RequestOrder();
  const ran: string[] = [];
  let openDone!: () => void;
  let changeDone!: () => void;
  order.schedule('open', async () => { ran.push('open'); await new Promise<void>((resolve) => { openDone = resolve; }); ran.push('opened'); });
  order.schedule('change', async () => { ran.push('change'); await new Promise<void>((resolve) => { changeDone = resolve; }); ran.push('changed'); });
  order.schedule('read', async () => { ran.push('read'); });
  order.schedule('close', async () => { ran.push('close'); });
  await new Promise((resolve) => setImmediate(resolve));
  assert.deepEqual([...ran].sort(), ['close', 'open'], 'only the opening and the close have started');
  openDone();
  await new Promise((resolve) => setImmediate(resolve));
  assert.deepEqual(ran.slice(2), ['opened', 'change', 'read'], 'the read did not wait for the change');
  changeDone();
  await new Promise((resolve) => setImmediate(resolve));
  assert.deepEqual(ran.at(-1), 'changed');
});
