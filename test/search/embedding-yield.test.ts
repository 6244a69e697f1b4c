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

  /** A service whose worker yields for maxYieldMs, with `held` writes waiting until `release` (or the end). */
  const withService = async (maxYieldMs: number, held: number,
    run: (running: RunningService, release: () => Promise<void>) => Promise<void>) => {
    const running = await startService({ bridge: { url: bridge.url }, overrides: { embedding_worker: { max_yield_ms: maxYieldMs } } });
    const release = holdWrites(running, held);
    try {
      await run(running, release);
    } finally {
      await release();
      await running.stop();
      removeDir(running.dataDir);
    }
  };
  /** Stores a 2-message conversation and waits until `total` messages are embedded. */
  const storedAndEmbedded = async (running: RunningService, label: string, total: number, what: string) => {
    await store(running, label);
    await waitFor(() => embedded(running), { what, until: (done) => done === total, timeoutMs: 10_000 });
  };

  test('while writes wait, nothing is embedded; once they are answered, the messages are', async () => {
    await withService(60_000, YIELD_WRITES_WAITING, async (running, release) => {
      await store(running, 'burst');
      await new Promise((resolve) => setTimeout(resolve, 500));
      assert.equal(await embedded(running), 0, 'the worker yields while writes wait');
      await release();
      await waitFor(() => embedded(running), { what: 'both messages embedded once the writes were answered', until: (done) => done === 2, timeoutMs: 10_000 });
    });
  });

  test('fewer writes waiting than the threshold: the worker does not yield', async () => {
    await withService(60_000, YIELD_WRITES_WAITING - 1, async (running) => {
      await storedAndEmbedded(running, 'steady', 2, 'embedded beside a few waiting writes');
    });
  });

  test('a burst that never ends still lets a batch through every max_yield_ms', async () => {
    await withService(300, YIELD_WRITES_WAITING + 4, async (running) => {
      await storedAndEmbedded(running, 'first', 2, 'embedded although the writes still wait');
      await storedAndEmbedded(running, 'second', 4, 'the next one too');
    });
  });

  test('max_yield_ms 0: the worker never yields', async () => {
    await withService(0, YIELD_WRITES_WAITING + 4, async (running) => {
      await storedAndEmbedded(running, 'never', 2, 'embedded while writes wait');
    });
  });
});
