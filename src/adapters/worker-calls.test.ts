import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Worker } from 'node:worker_threads';
import { WorkerCalls } from './worker-calls.js';

/** A thread that answers `echo` and ends itself on `die`. */
const SOURCE = `
const { parentPort } = require('node:worker_threads');
parentPort.on('message', (request) => {
  if (request.op === 'die') process.exit(3);
  parentPort.postMessage({ id: request.id, value: request.value });
});`;

test('a call is answered by its own reply; when the thread dies, the waiting call and every later one fail', async () => {
  const worker = new Worker(SOURCE, { eval: true });
  const calls = new WorkerCalls(worker, 'test thread');
  worker.on('message', (reply: { id: number; value: unknown }) => calls.settle(reply.id, { ok: true, value: reply.value }));
  try {
    assert.deepEqual(await Promise.all([calls.send({ op: 'echo', value: 1 }), calls.send({ op: 'echo', value: 2 })]), [1, 2]);
    assert.equal(calls.failed, false);

    const waiting = calls.send({ op: 'die' });
    await assert.rejects(waiting, /test thread exited \(code 3\)/);
    assert.equal(calls.failed, true);
    await assert.rejects(calls.send({ op: 'echo', value: 3 }), /test thread exited \(code 3\)/);
  } finally {
    await worker.terminate();
  }
});

test('the owner is told once, with the first error, when the thread dies; not while it answers', async () => {
  const worker = new Worker(SOURCE, { eval: true });
  const told: Error[] = [];
  const calls = new WorkerCalls(worker, 'test thread', (error) => told.push(error));
  worker.on('message', (reply: { id: number; value: unknown }) => calls.settle(reply.id, { ok: true, value: reply.value }));
  try {
    assert.equal(await calls.send({ op: 'echo', value: 1 }), 1);
    assert.equal(told.length, 0);
    await assert.rejects(calls.send({ op: 'die' }), /test thread exited \(code 3\)/);
    await assert.rejects(calls.send({ op: 'echo', value: 2 }));
    assert.equal(told.length, 1);
    assert.match(told[0]!.message, /test thread exited \(code 3\)/);
  } finally {
    await worker.terminate();
  }
});
