import type { Logger } from '../ports/logger.js';
import type { EmbeddingQueue, PendingMessage } from '../ports/embedding-queue.js';
import { UpstreamError } from '../domain/upstream-error.js';
import type { EmbeddingProvider } from '../ports/embedding-provider.js';
import type { VectorIndexHolder } from '../vector-index/vector-index.holder.js';
import { bridgeReturned } from './bridge-return.js';

export interface EmbeddingWorkerOptions {
  batchSize: number;
  pollIntervalMs: number;
  maxBackoffMs: number;
  /** After a failed batch the bridge's /health is probed at most this far apart; an answer resumes work at once. */
  bridgeProbeMaxMs: number;
  /** Attempts before a message that the bridge rejects is marked failed. */
  maxAttempts: number;
  /** How often the index is saved while it changes. */
  saveIntervalMs: number;
  /** How long a claimed batch is this worker's; after that another replica may take it. */
  claimLeaseMs: number;
  /** Told how many messages this worker embedded and stored (for the jobs-completed counter). */
  onEmbedded?: (count: number) => void;
  /**
   * Once YIELD_WRITES_WAITING writes of messages wait for their acknowledgement (`writesWaiting`), the worker claims no
   * batch until the burst ends (YIELD_QUIET_MS without it), for at most this long at a stretch; then one batch, and it
   * yields again. 0: never yields.
   */
  maxYieldMs?: number;
  /** Writes of messages waiting on the store now (WritesInFlight); absent: the worker never yields. */
  writesWaiting?: () => number;
  /**
   * The store indexes vectors as it stores them (PostgreSQL: the graph is updated in the completing statement): up
   * to COMPLETIONS_IN_FLIGHT completions then run while the next batch is embedded, as a local index's insert does.
   */
  overlapCompletion?: boolean;
}

/**
 * Writes waiting that make the worker yield. A client storing at a steady pace has one or none waiting at a time; a
 * burst keeps its every connection waiting. On 2 cores the pipeline (the bridge's embedding, the index inserts, the
 * writer's completions) took half the acknowledged rate of a burst: 6,800 msgs/s with it against 13,000-15,000
 * without (concurrency 8, bench/NOTES.md, session 27).
 */
export const YIELD_WRITES_WAITING = 4;
/**
 * Batches a store that indexes as it stores (overlapCompletion) may be storing at once: pgvector's graph inserts,
 * about 3-4 ms a vector on one core, bound the pipeline, and two run on two server processes while the next batch is
 * embedded (bench/NOTES.md).
 */
const COMPLETIONS_IN_FLIGHT = 2;
/** How often a yielding worker looks again. */
const YIELD_POLL_MS = 20;
/**
 * A burst has ended once no look saw it for this long. Writes leave the store a group at a time, so the count dips
 * between groups; without this the worker went on at each dip (a fresh 1M store's burst: 9,721-9,757 msgs/s
 * acknowledged with it yielding only at the moment it looked).
 */
const YIELD_QUIET_MS = 100;

export interface EmbeddingWorkerState {
  running: boolean;
  lastError: string | null;
  lastSuccessAt: string | null;
  /** Consecutive failures to reach the bridge; the wait between tries grows with it. */
  consecutiveFailures: number;
  embeddedSinceStart: number;
  /** Vectors being stored or on their way into the index (searchable once this is 0). */
  indexing: number;
}

/**
 * Embeds pending messages in batches through the bridge. The queue is the
 * messages' own state in the store, so a stopped bridge, a restart or a crash
 * only delays work: it is picked up where it was left.
 */
export class EmbeddingWorker {
  private timer: NodeJS.Timeout | null = null;
  private saveTimer: NodeJS.Timeout | null = null;
  private cycle: Promise<void> | null = null;
  /** The previous batch's insert into the index thread: the next batch is embedded while it runs. */
  private indexing: Promise<void> = Promise.resolve();
  /** Messages the last cycle claimed. */
  private lastClaimed = 0;
  /** Overlapped completions that failed since the start (their batches wait for their claims to lapse). */
  private storeFailures = 0;
  /** With overlapCompletion, the batches being stored (their promises never reject). */
  private readonly completing = new Set<Promise<void>>();
  /** Vectors of the batch being stored and not yet handed to the index. */
  private storing = 0;
  /** When the worker began leaving the cores to waiting writes (null: not yielding). */
  private yieldingSince: number | null = null;
  /** When the worker last saw YIELD_WRITES_WAITING writes waiting. */
  private crowdedAt = Number.NEGATIVE_INFINITY;
  private stopped = true;
  /** The watch for the bridge's return after a failed batch (one at a time). */
  private bridgeWatch: AbortController | null = null;
  private readonly state: EmbeddingWorkerState = {
    running: false, lastError: null, lastSuccessAt: null, consecutiveFailures: 0, embeddedSinceStart: 0, indexing: 0,
  };

  constructor(
    private readonly queue: EmbeddingQueue,
    private readonly provider: EmbeddingProvider,
    private readonly holder: VectorIndexHolder,
    private readonly options: EmbeddingWorkerOptions,
    private readonly log: Logger,
  ) {}

  start(): void {
    if (!this.stopped) return;
    this.stopped = false;
    this.state.running = true;
    this.saveTimer = setInterval(() => void this.holder.save('due'), this.options.saveIntervalMs);
    this.saveTimer.unref();
    this.schedule(0);
  }

  async stop(): Promise<void> {
    this.stopped = true;
    this.state.running = false;
    if (this.timer) clearTimeout(this.timer);
    if (this.saveTimer) clearInterval(this.saveTimer);
    this.bridgeWatch?.abort();
    await this.cycle;
    await Promise.all(this.completing);
    await this.indexing;
    await this.holder.save();
  }

  /** New work arrived: run now instead of at the next poll (unless backing off after failures). */
  wake(): void {
    if (this.stopped || this.cycle || this.state.consecutiveFailures > 0) return;
    this.schedule(0);
  }

  status(): EmbeddingWorkerState {
    return { ...this.state, indexing: this.state.indexing + this.storing };
  }

  /** Runs until the queue is empty; throws when the bridge fails. For tests and tools that need "searchable now". */
  async drain(): Promise<void> {
    const storeFailuresBefore = this.storeFailures;
    for (;;) {
      if (this.cycle) {
        await this.cycle;
        // Pending messages claimed elsewhere (batches being stored here, or another replica's) cannot be claimed:
        // wait for a batch of ours, or a poll interval, rather than claim nothing again and again.
        if (this.lastClaimed === 0) {
          if (this.completing.size > 0) await Promise.race(this.completing);
          else await new Promise((resolve) => setTimeout(resolve, this.options.pollIntervalMs));
        }
        if (this.storeFailures > storeFailuresBefore) throw new Error(this.state.lastError ?? 'storing vectors failed');
        continue;
      }
      const pending = await this.queue.pendingCount();
      if (pending === 0 || this.holder.current().mismatch) {
        await Promise.all(this.completing);
        await this.indexing;
        // A completion that was still running may have failed, leaving its messages pending: look again.
        if (this.holder.current().mismatch || (await this.queue.pendingCount()) === 0) return;
        continue;
      }
      if (this.state.consecutiveFailures > 0) throw new Error(this.state.lastError ?? 'embedding failed');
      this.cycle = this.runCycle();
    }
  }

  private schedule(delayMs: number): void {
    if (this.stopped) return;
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      if (this.cycle) return;
      if (this.yielding()) this.schedule(YIELD_POLL_MS);
      else this.cycle = this.runCycle();
    }, delayMs);
  }

  /** Writes are waiting for their acknowledgement: leave the cores to them, at most maxYieldMs at a stretch. */
  private yielding(): boolean {
    const maxYieldMs = this.options.maxYieldMs ?? 0;
    if (maxYieldMs <= 0) return false;
    const now = performance.now();
    if ((this.options.writesWaiting?.() ?? 0) >= YIELD_WRITES_WAITING) this.crowdedAt = now;
    if (now - this.crowdedAt >= YIELD_QUIET_MS) {
      this.yieldingSince = null;
      return false;
    }
    this.yieldingSince ??= now;
    if (now - this.yieldingSince < maxYieldMs) return true;
    this.yieldingSince = null;
    return false;
  }

  private async runCycle(): Promise<void> {
    let delay = this.options.pollIntervalMs;
    try {
      const batch = await this.queue.claimPending(this.options.batchSize, this.options.claimLeaseMs);
      this.lastClaimed = batch.length;
      if (batch.length > 0 && !this.holder.current().mismatch) {
        await this.embedBatch(batch);
        delay = 0;
      } else if (batch.length === 0) {
        // Another replica may have recorded the model: a graph of this replica's own then opens and catches up now,
        // not at the first search.
        await this.holder.refresh();
      }
      this.state.consecutiveFailures = 0;
    } catch (error) {
      this.state.consecutiveFailures += 1;
      this.state.lastError = (error as Error).message;
      delay = Math.min(this.options.maxBackoffMs, this.options.pollIntervalMs * 2 ** this.state.consecutiveFailures);
      delay = Math.round(delay * (0.75 + Math.random() * 0.5));
      this.log.warn({ err: error, retryInMs: delay }, 'embedding batch failed; will retry');
      if (error instanceof UpstreamError && error.retryable) this.watchForBridgeReturn(error.status === undefined);
    } finally {
      this.cycle = null;
    }
    if (this.holder.current().mismatch) delay = Math.max(delay, this.options.maxBackoffMs);
    this.schedule(delay);
  }

  /**
   * A bridge that was away and answers again resumes the queue now, not at the
   * end of a backoff that may have grown to max_backoff_ms while it was down.
   */
  private watchForBridgeReturn(seenDown: boolean): void {
    if (this.bridgeWatch || this.stopped) return;
    const watch = new AbortController();
    this.bridgeWatch = watch;
    void bridgeReturned(this.provider, {
      minDelayMs: Math.min(this.options.pollIntervalMs, this.options.bridgeProbeMaxMs),
      maxDelayMs: this.options.bridgeProbeMaxMs,
      probeTimeoutMs: BRIDGE_PROBE_TIMEOUT_MS,
      seenDown,
      signal: watch.signal,
    }).then((back) => {
      if (!back || this.stopped) return;
      this.log.info({ lastError: this.state.lastError }, 'LLM bridge answers again; embedding resumes');
      this.state.consecutiveFailures = 0;
      if (!this.cycle) this.schedule(0);
    }).finally(() => {
      if (this.bridgeWatch === watch) this.bridgeWatch = null;
    });
  }

  private async embedBatch(batch: PendingMessage[]): Promise<void> {
    let result;
    try {
      result = await this.provider.embed(batch.map(textOf));
    } catch (error) {
      if (error instanceof UpstreamError && !error.retryable) {
        await this.isolateRejected(batch, error);
        return;
      }
      // Handed back, or they would wait out their lease (a minute on PostgreSQL) after the bridge answers again. If
      // the store cannot take them back now, the lease still frees them.
      await this.queue.release(batch.map((message) => message.key)).catch(() => {});
      throw error;
    }
    if (!(await this.holder.accept({ model: result.model, dimension: result.dimension }))) {
      // Vectors of another model than the recorded one are not stored: the batch goes back for a replica that can.
      await this.queue.release(batch.map((message) => message.key)).catch(() => {});
      return;
    }
    const items = batch.map((message, i) => ({ key: message.key, vector: result.vectors[i]! }));
    if (this.options.overlapCompletion) {
      while (this.completing.size >= COMPLETIONS_IN_FLIGHT) await Promise.race(this.completing);
      const completion: Promise<void> = this.completeInStore(result.model, items).finally(() => this.completing.delete(completion));
      this.completing.add(completion);
      return;
    }
    // From the moment the store may show these messages done until their insert is under way, they count as
    // indexing: the store commits on its writer thread, and a status read can come in before the answer does.
    this.storing += items.length;
    let kept: typeof items;
    try {
      const stored = await this.queue.complete(result.model, items);
      const storedKeys = new Set(stored);
      kept = items.filter((item) => storedKeys.has(item.key));
      // One insert in flight at most: it runs in the index thread while the next batch is embedded.
      await this.indexing;
      const index = this.holder.current().index;
      if (index && kept.length > 0) {
        this.state.indexing = kept.length;
        this.indexing = index.add(kept.map((item) => item.key), kept.map((item) => item.vector)).catch((error: unknown) => {
          // The vectors are stored; the index catches up with them on the next start.
          this.log.error({ err: error }, 'adding vectors to the index failed');
        }).finally(() => { this.state.indexing = 0; });
      }
    } finally {
      this.storing -= items.length;
    }
    this.noteStored(kept.length);
  }

  private noteStored(count: number): void {
    this.state.embeddedSinceStart += count;
    this.options.onEmbedded?.(count);
    this.state.lastSuccessAt = new Date().toISOString();
    this.state.lastError = null;
  }

  /**
   * Stores a batch while the next one is embedded. A failure leaves its messages claimed until their lease lapses
   * (then they are embedded again), is reported in the worker's status and fails a drain under way.
   */
  private async completeInStore(model: string, items: Array<{ key: number; vector: Float32Array }>): Promise<void> {
    this.storing += items.length;
    try {
      this.noteStored((await this.queue.complete(model, items)).length);
    } catch (error) {
      this.storeFailures += 1;
      this.state.consecutiveFailures += 1;
      this.state.lastError = (error as Error).message;
      this.log.warn({ err: error }, 'storing embedded vectors failed; their messages are embedded again once their claim lapses');
    } finally {
      this.storing -= items.length;
    }
  }

  /** A batch the bridge refuses outright: embed one by one so a single bad message cannot block the rest. */
  private async isolateRejected(batch: PendingMessage[], error: UpstreamError): Promise<void> {
    if (batch.length === 1) {
      this.log.warn({ key: batch[0]!.key, err: error }, 'bridge rejected a message for embedding');
      await this.queue.recordFailure([batch[0]!.key], error.message, this.options.maxAttempts);
      return;
    }
    for (const message of batch) await this.embedBatch([message]);
  }
}

const BRIDGE_PROBE_TIMEOUT_MS = 2000;

const textOf = (message: PendingMessage) => message.content;
