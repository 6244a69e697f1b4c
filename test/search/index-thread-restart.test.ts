import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Worker } from 'node:worker_threads';
import { FakeBridge } from '../helpers/fake-bridge.js';
import { type RunningService, startService } from '../helpers/service-harness.js';
import { waitFor } from '../helpers/wait-for.js';

const FOLDER = '/restart';
const CONVERSATIONS_BEFORE = 400;
const CONVERSATIONS_WHILE_DOWN = 40;

const contentsOf = (prefix: string, i: number) =>
  [0, 1, 2].map((turn) => `${prefix} conversation ${i} turn ${turn} about topic${(i * 7 + turn) % 53} and item${i}x${turn}`);

/**
 * The vector index runs in its own thread. That thread ending while the service runs (an error it did not catch)
 * must not end semantic search for good: the service answers without the index
 * (partial) meanwhile, opens it again and adds the stored vectors it lacks, including those embedded while it was
 * down.
 */
describe('the vector index thread ends while the service runs', () => {
  let bridge: FakeBridge;
  let running: RunningService;
  const status = async () => (await running.api('GET', '/api/v1/embeddings/status')).body;
  const store = async (prefix: string, count: number) => {
    const stored: string[][] = [];
    for (let i = 0; i < count; i += 1) {
      const contents = contentsOf(prefix, i);
      const created = await running.api('POST', '/api/v1/conversations', {
        label: `${prefix}-${i}`, folder: FOLDER, messages: contents.map((content) => ({ role: 'user', content })),
      });
      assert.equal(created.status, 201);
      stored.push(contents);
    }
    return stored;
  };
  /** Every one of `texts` is its own best semantic match, from a complete (not partial) index. */
  const assertEachFindsItself = async (texts: string[]) => {
    for (const text of texts) {
      const found = await running.api('POST', '/api/v1/query', { query: text, mode: 'semantic', limit: 1 });
      assert.equal(found.status, 200);
      assert.equal(found.body.partial, undefined, 'the index has caught up');
      assert.equal(found.body.results[0]?.content, text, `"${text}" finds itself`);
    }
  };

  before(async () => {
    bridge = await new FakeBridge().start();
    running = await startService({ bridge: { url: bridge.url } });
  });
  after(async () => {
    await running.stop();
    await bridge.stop();
  });

  test('searches answer partial meanwhile; the index opens again with every stored vector, those embedded while it was down too', async () => {
    const before = await store('before', CONVERSATIONS_BEFORE);
    await running.waitForEmbeddings();
    const sample = before.filter((_, i) => i % 40 === 0).flat();
    await assertEachFindsItself(sample);
    const indexedBefore = (await status()).indexed;
    assert.equal(indexedBefore, CONVERSATIONS_BEFORE * 3);

    // The thread dies as it would on an error it did not catch: it ends without being closed.
    const failing = running.controller.holder.current().index;
    assert.ok(failing);
    await (failing as unknown as { worker: Worker }).worker.terminate();

    const down = await status();
    assert.equal(down.index_catch_up.state, 'failed');
    assert.match(down.index_catch_up.error, /vector index thread exited/);
    const meanwhile = await running.api('POST', '/api/v1/query', { query: sample[0], mode: 'semantic', limit: 1 });
    assert.equal(meanwhile.status, 200, 'a semantic search while the index is down is answered, not an error');
    assert.equal(meanwhile.body.partial, true, 'and says it may miss messages');
    const hybrid = await running.api('POST', '/api/v1/query', { query: sample[0], limit: 1 });
    assert.equal(hybrid.status, 200);
    assert.equal(hybrid.body.results[0]?.content, sample[0], 'hybrid search still finds it by its words');

    // Written, embedded and stored while the index is down: the reopened index must add them.
    const whileDown = await store('down', CONVERSATIONS_WHILE_DOWN);

    const recovered = await waitFor(status, {
      what: 'the index open again, caught up, with every stored vector',
      until: (s) => s.index_catch_up.state === 'ready' && s.searchable && s.pending === 0 && s.indexed === s.done,
      timeoutMs: 60_000,
    });
    assert.equal(recovered.done, (CONVERSATIONS_BEFORE + CONVERSATIONS_WHILE_DOWN) * 3);
    assert.equal(recovered.index_catch_up.error, null);
    assert.notEqual(running.controller.holder.current().index, failing, 'a new index thread');
    await assertEachFindsItself([...sample, ...whileDown.flat()]);

    // New messages go into the new thread's index as before.
    const after = await store('after', 5);
    await running.waitForEmbeddings();
    await assertEachFindsItself(after.flat());

    // And again: a second failure is recovered from too (after a longer wait).
    const second = running.controller.holder.current().index;
    await (second as unknown as { worker: Worker }).worker.terminate();
    await waitFor(status, {
      what: 'the index open again after a second failure',
      until: (s) => s.index_catch_up.state === 'ready' && s.indexed === s.done,
      timeoutMs: 60_000,
    });
    await assertEachFindsItself([sample[0]!, after[0]![0]!]);
  });
});
