import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { YIELD_WRITES_WAITING } from '../../src/worker/embedding.worker.js';
import { FakeBridge } from '../helpers/fake-bridge.js';
import { removeDir, type RunningService, startService } from '../helpers/service-harness.js';
import { waitFor } from '../helpers/wait-for.js';

/** `count` writes that stay waiting on the store until released, counted as real creates are. */
function holdWrites(running: RunningService, count: number): () => Promise<void> {
  let release!: () => void;
  const held = new Promise<void>((resolve) => { release = resolve; });
  const writes = Array.from({ length: count }, () => running.controller.writes.around(() => held));
  return async () => { release(); await Promise.all(writes); };
}

const embedded = async (running: RunningService): Promise<number> =>
  (await running.api('GET', '/api/v1/embeddings/status')).body.done as number;

async function store(running: RunningService, label: string): Promise<void> {
  const created = await running.api('POST', '/api/v1/conversations', {
    label, messages: [{ role: 'user', content: `${label} about the harbour` }, { role: 'assistant', content: 'the boats left early' }],
  });
  assert.equal(created.status, 201);
}

/** The embedding worker leaves the cores to clients waiting on writes, for at most embedding_worker.max_yield_ms at a stretch. */
describe('embedding yields to a burst of writes', () => {
  let bridge: FakeBridge;
  before(async () => { bridge = await new FakeBridge().start(); });
  after(async () => { await bridge.stop(); });

  const withService = async (maxYieldMs: number, run: (running: RunningService) => Promise<void>) => {
    const running = await startService({ bridge: { url: bridge.url }, overrides: { embedding_worker: { max_yield_ms: maxYieldMs } } });
    try {
      await run(running);
    } finally {
      await running.stop();
      removeDir(running.dataDir);
    }
  };

  test('while writes wait, nothing is embedded; once they are answered, the messages are', async () => {
    await withService(60_000, async (running) => {
      const release = holdWrites(running, YIELD_WRITES_WAITING);
      await store(running, 'burst');
      await new Promise((resolve) => setTimeout(resolve, 500));
      assert.equal(await embedded(running), 0, 'the worker yields while writes wait');
      await release();
      await waitFor(() => embedded(running), { what: 'both messages embedded once the writes were answered', until: (done) => done === 2, timeoutMs: 10_000 });
    });
  });

  test('fewer writes waiting than the threshold: the worker does not yield', async () => {
    await withService(60_000, async (running) => {
      const release = holdWrites(running, YIELD_WRITES_WAITING - 1);
      await store(running, 'steady');
      await waitFor(() => embedded(running), { what: 'embedded beside a few waiting writes', until: (done) => done === 2, timeoutMs: 10_000 });
      await release();
    });
  });

  test('a burst that never ends still lets a batch through every max_yield_ms', async () => {
    await withService(300, async (running) => {
      const release = holdWrites(running, YIELD_WRITES_WAITING + 4);
      await store(running, 'first');
      await waitFor(() => embedded(running), { what: 'embedded although the writes still wait', until: (done) => done === 2, timeoutMs: 10_000 });
      await store(running, 'second');
      await waitFor(() => embedded(running), { what: 'the next one too', until: (done) => done === 4, timeoutMs: 10_000 });
      await release();
    });
  });

  test('max_yield_ms 0: the worker never yields', async () => {
    await withService(0, async (running) => {
      const release = holdWrites(running, YIELD_WRITES_WAITING + 4);
      await store(running, 'never');
      await waitFor(() => embedded(running), { what: 'embedded while writes wait', until: (done) => done === 2, timeoutMs: 10_000 });
      await release();
    });
  });
});
