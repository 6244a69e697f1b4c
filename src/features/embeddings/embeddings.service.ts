import type { Logger } from '../../ports/logger.js';
import type { Clock } from '../../ports/clock.js';
import type { EmbeddingQueue } from '../../ports/embedding-queue.js';
import type { VectorIndexHolder } from '../../vector-index/vector-index.holder.js';

export interface RebuildProgress {
  started_at: string;
  total: number;
}

/** Embedding state and the rebuild job (after a model change, or on demand). */
export class EmbeddingsService {
  private rebuild: RebuildProgress | null = null;

  constructor(
    private readonly deps: {
      queue: EmbeddingQueue;
      holder: VectorIndexHolder;
      clock: Clock;
      wakeWorker: () => void;
      workerStatus: () => Record<string, unknown>;
      log: Logger;
      /**
       * The queue is a tenant's view: its counts are the tenant's, and what only the whole store has (the index's
       * size, its backlog, the worker's totals and errors) is not shown.
       */
      tenant?: boolean;
    },
  ) {}

  /** Marks every message pending and empties the index; the worker re-embeds in the background. */
  async startRebuild(): Promise<void> {
    // The count comes from the reset itself: a worker may embed some before a later count could run.
    const pending = await this.deps.queue.resetAll();
    await this.deps.holder.reset();
    this.rebuild = { started_at: this.deps.clock.now().toISOString(), total: pending };
    this.deps.log.info({ messages: pending }, 'embedding rebuild started');
    this.deps.wakeWorker();
  }

  /** Messages stored but not embedded yet; asked on every semantic and hybrid search. */
  pending(): Promise<number> {
    return this.deps.queue.pendingCount();
  }

  async status() {
    const counts = await this.deps.queue.counts();
    await this.deps.holder.refresh();
    const { model, mismatch, index } = this.deps.holder.current();
    const worker = this.deps.workerStatus();
    const catchUp = this.deps.holder.catchUpStatus();
    const rebuild = this.rebuild && {
      ...this.rebuild,
      done: Math.max(0, this.rebuild.total - counts.pending - counts.failed),
      complete: counts.pending === 0,
    };
    const tenant = this.deps.tenant === true;
    return {
      pending: counts.pending,
      done: counts.done,
      failed: counts.failed,
      model: model?.model ?? null,
      dimension: model?.dimension ?? null,
      // Without a local index the database indexes every stored vector.
      indexed: index && !tenant ? index.size() : counts.done,
      graph_backlog: index && !tenant ? index.waiting() : 0,
      searchable: counts.pending === 0 && !worker.indexing && !this.deps.holder.partial(),
      index_catch_up: tenant ? { ...catchUp, indexed: counts.done, added: 0 } : catchUp,
      model_mismatch: mismatch ? { recorded: mismatch.recorded.model, current: mismatch.current.model } : null,
      rebuild,
      worker: tenant ? { running: worker['running'], lastSuccessAt: worker['lastSuccessAt'], indexing: worker['indexing'] } : worker,
    };
  }
}
