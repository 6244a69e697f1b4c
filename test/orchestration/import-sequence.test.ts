import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { FakeBridge } from '../helpers/fake-bridge.js';
import { removeDir, type RunningService, startService } from '../helpers/service-harness.js';

const JSONL = { 'content-type': 'application/x-ndjson' };
const record = (id: string, label: string, folder = '/sequence') =>
  JSON.stringify({ id, label, folder, messages: [{ role: 'user', content: `${label} says hello` }] });
const badRecord = JSON.stringify({ label: 'bad role', folder: '/sequence', messages: [{ role: 'robot', content: 'beep' }] });
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('sequenced import batches (batch, after)', () => {
  let bridge: FakeBridge;
  let server: RunningService;
  const importBatch = (query: string, body: string) => server.api('POST', `/api/v1/import?${query}`, body, JSONL);
  const labelOf = async (id: string) => (await server.api('GET', `/api/v1/conversations/${id}`)).body.label as string | undefined;

  before(async () => {
    bridge = await new FakeBridge().start();
    server = await startService({ bridge: { url: bridge.url }, overrides: { embedding_worker: { enabled: false } } });
  });
  after(async () => {
    await server.stop();
    await bridge.stop();
    removeDir(server.dataDir);
  });

  test('a batch that follows another is stored after it, even when it arrives first', async () => {
    const id = randomUUID();
    // Both batches hold the same conversation, replaced by whichever is stored last.
    const second = importBatch('on_conflict=replace&batch=order-2&after=order-1', record(id, 'second'));
    await pause(100);
    const first = await importBatch('on_conflict=replace&batch=order-1', record(id, 'first'));
    assert.equal(first.status, 200, first.text);
    const answered = await second;
    assert.equal(answered.status, 200, answered.text);
    assert.equal(JSON.parse(answered.text).replaced, 1, 'the second replaced what the first stored');
    assert.equal(await labelOf(id), 'second');
  });

  test('a batch that follows a refused batch is refused as OUT_OF_SEQUENCE, and nothing of it is stored', async () => {
    const id = randomUUID();
    const second = importBatch('batch=refused-2&after=refused-1', record(id, 'after a refused batch'));
    await pause(100);
    const first = await importBatch('batch=refused-1', `${record(randomUUID(), 'fine')}\n${badRecord}`);
    assert.equal(first.status, 400, first.text);
    const answered = await second;
    assert.equal(answered.status, 409, answered.text);
    const error = JSON.parse(answered.text);
    assert.equal(error.code, 'OUT_OF_SEQUENCE');
    assert.match(error.error, /refused-1, which this one follows, was not stored/);
    assert.equal((await server.api('GET', `/api/v1/conversations/${id}`)).status, 404);
  });

  test('a batch name once stored is refused again; one whose attempt stored nothing may be sent again', async () => {
    const stored = await importBatch('batch=names-1', record(randomUUID(), 'names one'));
    assert.equal(stored.status, 200, stored.text);
    const twice = await importBatch('batch=names-1', record(randomUUID(), 'names one again'));
    assert.equal(twice.status, 409, twice.text);
    assert.equal(JSON.parse(twice.text).code, 'CONFLICT');

    const refused = await importBatch('batch=names-2&after=names-1', badRecord);
    assert.equal(refused.status, 400, refused.text);
    const id = randomUUID();
    const retried = await importBatch('batch=names-2&after=names-1', record(id, 'names two'));
    assert.equal(retried.status, 200, retried.text);
    const next = await importBatch('batch=names-3&after=names-2', record(randomUUID(), 'names three'));
    assert.equal(next.status, 200, 'the retried batch counts as stored for the one after it');
    assert.equal(await labelOf(id), 'names two');
  });

  test('a batch name is refused while an attempt of it is under way', async () => {
    // Two attempts at busy-2, both waiting for busy-1: whichever the service takes first waits, the other is refused at
    // once (so the test does not depend on which arrives first).
    const attempts = ['busy two', 'busy two again'].map((label, i) =>
      importBatch('batch=busy-2&after=busy-1', record(randomUUID(), label)).then((response) => ({ i, response })));
    const { i: refusedAttempt, response: again } = await Promise.race(attempts);
    assert.equal(again.status, 409, again.text);
    const error = JSON.parse(again.text);
    assert.equal(error.code, 'CONFLICT');
    assert.match(error.error, /busy-2 is being stored already/);
    // The attempt under way goes on once the batch it follows is stored.
    assert.equal((await importBatch('batch=busy-1', record(randomUUID(), 'busy one'))).status, 200);
    assert.equal((await attempts[1 - refusedAttempt]!).response.status, 200);
  });

  test('bad sequence parameters are 400s', async () => {
    for (const query of ['batch=a&after=a', 'batch=has%20space', `batch=${'x'.repeat(101)}`, 'after=', 'after=a/b',
      'batch=b&batch=c', 'batch=d&after=e&after=f', 'batch[]=g']) {
      const response = await importBatch(query, record(randomUUID(), 'never'));
      assert.equal(response.status, 400, `${query}: ${response.text}`);
      assert.equal(typeof JSON.parse(response.text).error, 'string');
    }
    // A refused request's name stays free: the attempt stored nothing.
    assert.equal((await importBatch('batch=d', record(randomUUID(), 'd at last'))).status, 200);
  });
});
