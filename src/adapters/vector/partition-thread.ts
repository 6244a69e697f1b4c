import type { Worker } from 'node:worker_threads';
import type { ScoredKey } from '../../domain/search.js';
import type { SaveScope } from '../../ports/vector-index.js';
import { WorkerCalls, type WithoutId } from '../worker-calls.js';
import { startModuleWorker } from './module-worker.js';
import type { PartitionLayout, SearchPlan } from './partitioned-vector-index.js';
import type { HnswParameters } from './usearch-vector.index.js';
import type { PartitionThreadReply, PartitionThreadRequest, SearchReply } from './vector-index.protocol.js';

/** How long stop waits for the thread to finish its current step (a partition's share of a slice, a graph's save). */
const STOP_WAIT_MS = 5000;

/**
 * The index thread's handle on the second search thread (partition-thread.worker.ts), which holds the partitions of
 * colour 1. Every answer brings the sizes of its partitions (`sizes`). The thread ending without being stopped is
 * reported to `onFailure`.
 */
export class PartitionThread {
  private readonly calls: WorkerCalls;
  private stopping = false;
  /** Vectors in each of its partitions, as it last said (every answer says). */
  readonly sizes = new Map<number, number>();
  /** Settles once the thread has opened its partitions (loading their saved graphs). */
  readonly opened: Promise<void>;

  private constructor(
    private readonly worker: Worker, onFailure: (error: Error) => void,
    open: WithoutId<PartitionThreadRequest>,
  ) {
    this.calls = new WorkerCalls(worker, 'partition search thread', (error) => { if (!this.stopping) onFailure(error); });
    worker.on('message', (reply: PartitionThreadReply) => {
      for (const [partition, size] of reply.sizes) this.sizes.set(partition, size);
      this.calls.settle(reply.id, reply.ok ? reply : { ok: false, error: new Error(`partition thread: ${reply.error}`) });
    });
    this.opened = this.calls.send(open).then(() => undefined);
  }

  /** Starts the thread and has it open its partitions of `layout` (see `opened`). */
  static start(
    dir: string, model: string, dimension: number, parameters: HnswParameters, layout: PartitionLayout,
    onFailure: (error: Error) => void,
  ): PartitionThread {
    const worker = startModuleWorker(import.meta.url, 'partition-thread.worker', ['usearch']);
    return new PartitionThread(worker, onFailure, { op: 'open', dir, model, dimension, parameters, layout });
  }

  /** Removes `sliceKeys` from its partitions and adds these rows to them; settles once they are in. */
  async add(sliceKeys: readonly number[], keys: number[], matrix: Float32Array): Promise<void> {
    await this.calls.send({ op: 'add', sliceKeys: [...sliceKeys], keys, matrix }, [matrix.buffer as ArrayBuffer]);
  }

  async remove(keys: readonly number[]): Promise<void> {
    await this.calls.send({ op: 'remove', keys: [...keys] });
  }

  /** The keys of `keys` none of its partitions holds. */
  async missing(keys: readonly number[]): Promise<number[]> {
    if (keys.length === 0) return [];
    return (await this.calls.send({ op: 'missing', keys: [...keys] })) as number[];
  }

  /** Its partitions' answers to their part of a search plan (graph scores, unsorted). */
  async search(graphQuery: Float32Array, asks: SearchPlan['asks']): Promise<ScoredKey[]> {
    const found = (await this.calls.send({ op: 'search', graphQuery, asks })) as SearchReply;
    return found.keys.map((key, i) => ({ key, score: found.scores[i]! }));
  }

  async save(scope: SaveScope): Promise<void> {
    await this.calls.send({ op: 'save', scope });
  }

  /** Has the thread stop between two steps (or gives it STOP_WAIT_MS), then ends it. */
  async stop(): Promise<void> {
    this.stopping = true;
    let timer: NodeJS.Timeout | undefined;
    const waited = new Promise<void>((resolve) => { timer = setTimeout(resolve, STOP_WAIT_MS); });
    await Promise.race([this.calls.send({ op: 'close' }).catch(() => undefined), waited]);
    clearTimeout(timer);
    await this.worker.terminate();
  }
}
