import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { EmbeddingModelInfo, EmbeddingQueue, PendingMessage } from '../ports/embedding-queue.js';
import type { EmbeddingProvider } from '../ports/embedding-provider.js';
import type { Logger } from '../ports/logger.js';
import { UpstreamError } from '../domain/upstream-error.js';
import { VectorIndexHolder } from '../vector-index/vector-index.holder.js';
import { FakeEmbeddingProvider } from '../../test/helpers/fakes.js';
import { EmbeddingWorker } from './embedding.worker.js';

const quiet: Logger = { debug() {}, info() {}, warn() {}, error() {} };

/**
 * The queue as a store that indexes as it stores (PostgreSQL) shows it to the worker: claims under a lease, and a
 * completion that takes a while. It counts completions running at once, and can fail the next one.
 */
class SlowStoreQueue implements Partial<EmbeddingQueue> {
  readonly pending = new Map<number, { content: string; claimed: boolean }>();
  readonly stored = new Map<number, number>();
  running = 0;
  mostRunning = 0;
  failNext: Error | null = null;
  private model: EmbeddingModelInfo | null = null;

  constructor(count: number) {
    for (let key = 1; key <= count; key += 1) this.pending.set(key, { content: `message ${key}`, claimed: false });
  }

  async claimPending(limit: number): Promise<PendingMessage[]> {
    const open = [...this.pending].filter(([, message]) => !message.claimed).slice(0, limit);
    for (const [, message] of open) message.claimed = true;
    return open.map(([key, message]) => ({ key, content: message.content, attempts: 0 }));
  }

  async complete(_model: string, items: ReadonlyArray<{ key: number; vector: Float32Array }>): Promise<number[]> {
    this.running += 1;
    this.mostRunning = Math.max(this.mostRunning, this.running);
    try {
      await new Promise((resolve) => setTimeout(resolve, 5));
      if (this.failNext) {
        const error = this.failNext;
        this.failNext = null;
        throw error;
      }
      const done = items.filter((item) => this.pending.delete(item.key));
      for (const item of done) this.stored.set(item.key, (this.stored.get(item.key) ?? 0) + 1);
      return done.map((item) => item.key);
    } finally {
      this.running -= 1;
    }
  }

  /** Keys handed back by release(), in calls. */
  readonly released: number[][] = [];

  async release(keys: readonly number[]): Promise<void> {
    this.released.push([...keys]);
    for (const key of keys) {
      const message = this.pending.get(key);
      if (message) message.claimed = false;
    }
  }

  /** What a lapsed lease does: claimed messages can be claimed again. */
  lapseClaims(): void {
    for (const message of this.pending.values()) message.claimed = false;
  }

  async pendingCount(): Promise<number> { return this.pending.size; }
  async recordFailure(): Promise<void> {}
  async recordedModel(): Promise<EmbeddingModelInfo | null> { return this.model; }
  async recordModel(info: EmbeddingModelInfo): Promise<EmbeddingModelInfo> { this.model ??= info; return this.model; }
}

function workerOn(queue: SlowStoreQueue, provider: EmbeddingProvider = new FakeEmbeddingProvider()): EmbeddingWorker {
  const store = queue as unknown as EmbeddingQueue;
  return new EmbeddingWorker(store, provider, new VectorIndexHolder(store, null, quiet), {
    batchSize: 4, pollIntervalMs: 10, maxBackoffMs: 50, bridgeProbeMaxMs: 50, maxAttempts: 3, saveIntervalMs: 60_000,
    claimLeaseMs: 60_000, overlapCompletion: true,
  }, quiet);
}

test('with overlapped completions, every message is stored once and at most two batches are stored at a time', async () => {
  const queue = new SlowStoreQueue(40);
  const worker = workerOn(queue);
  await worker.drain();
  assert.equal(queue.pending.size, 0);
  assert.deepEqual([...queue.stored.values()], Array(40).fill(1));
  assert.equal(queue.mostRunning, 2);
  assert.equal(worker.status().embeddedSinceStart, 40);
  assert.equal(worker.status().indexing, 0);
});

test('a completion that fails leaves its messages pending, fails the drain, and they are stored once their claim lapses', async () => {
  const queue = new SlowStoreQueue(12);
  queue.failNext = new Error('connection to the database lost');
  const worker = workerOn(queue);
  await assert.rejects(worker.drain(), /connection to the database lost/);
  await worker.stop();
  // Only the failed batch is left claimed: the others were stored, or never claimed.
  assert.equal([...queue.pending.values()].filter((message) => message.claimed).length, 4);
  assert.ok(queue.stored.size > 0, 'the batches beside the failed one were stored');
  queue.lapseClaims();
  const next = workerOn(queue);
  await next.drain();
  assert.equal(queue.pending.size, 0);
  assert.deepEqual([...queue.stored.values()], Array(12).fill(1));
});

test('a batch the bridge could not embed is handed back at once, not held until its claim lapses', { timeout: 20_000 }, async () => {
  const queue = new SlowStoreQueue(8);
  const healthy = new FakeEmbeddingProvider();
  let calls = 0;
  const flaky: EmbeddingProvider = {
    health: () => healthy.health(),
    embed: async (texts) => {
      calls += 1;
      if (calls === 1) throw new UpstreamError({ provider: 'bridge', kind: 'network', url: 'http://127.0.0.1:1/embed', message: 'bridge is starting' });
      return healthy.embed(texts);
    },
  };
  const worker = workerOn(queue, flaky);
  await assert.rejects(worker.drain(), /bridge is starting/);
  assert.deepEqual(queue.released, [[1, 2, 3, 4]]);
  await worker.stop();
  // Claims here never lapse on their own: this drain ends only because the failed batch was handed back.
  await workerOn(queue, flaky).drain();
  assert.equal(queue.pending.size, 0);
  assert.deepEqual([...queue.stored.values()], Array(8).fill(1));
});

test('a batch embedded by another model than the recorded one is handed back, not stored', { timeout: 20_000 }, async () => {
  const queue = new SlowStoreQueue(4);
  await queue.recordModel({ model: 'another-model', dimension: 8 });
  const worker = workerOn(queue);
  await worker.drain();
  await worker.stop();
  assert.deepEqual(queue.released, [[1, 2, 3, 4]]);
  assert.equal(queue.stored.size, 0);
  assert.ok([...queue.pending.values()].every((message) => !message.claimed), 'nothing is left claimed');
});
