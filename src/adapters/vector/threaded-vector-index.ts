import type { Worker } from 'node:worker_threads';
import type { ScoredKey } from '../../domain/search.js';
import type { SaveScope, VectorIndex } from '../../ports/vector-index.js';
import { WorkerCalls } from '../worker-calls.js';
import { startModuleWorker } from './module-worker.js';
import { INSERT_FAILURE_ID, type IndexReply, type IndexRequest, type SearchReply } from './vector-index.protocol.js';
import { DEFAULT_HNSW_PARAMETERS, type HnswParameters } from './usearch-vector.index.js';

/**
 * Vectors waiting for the graph, at most, before `add` holds its answer back. The waiting vectors are searched
 * exactly: 8,192 of 768 floats cost a search about 1 ms (usearch exactSearch, one thread, busy 2-core machine).
 */
export const DEFAULT_BACKLOG_LIMIT = 8192;
/** How long close waits for the thread to finish its current insert slice (a slice of 512 takes up to ~100 ms at 1M). */
const CLOSE_WAIT_MS = 5000;

export interface ThreadedIndexOptions {
  /** Vectors waiting for the graph, at most, before `add` holds its answer back. */
  backlogLimit?: number;
  /** Told when vectors could not go into the graph (they stay stored; the next start adds them). */
  onInsertFailure?: (error: Error) => void;
  /**
   * Told once when the thread ends before `close` (an error it did not catch): every call fails from then on.
   */
  onThreadExit?: (error: Error) => void;
}

/**
 * The usearch HNSW index, run in a worker thread (usearch-index.worker.ts):
 * loading a saved graph, inserting and saving take seconds at a million
 * vectors, and none of it may stall requests. Searches cost one message hop.
 * Added vectors are searchable at once (an exact scan finds them) and go into
 * the graph in the background; `add` answers when its vectors are searchable
 * and the backlog is within its limit, which paces the embedding pipeline.
 */
export class ThreadedVectorIndex implements VectorIndex {
  private readonly calls: WorkerCalls;
  private knownSize = 0;
  private knownWaiting = 0;
  private closing = false;
  /** Resolves once the saved graph is loaded (true) or found missing or stale (false: starts empty). */
  readonly loaded: Promise<boolean>;

  private constructor(
    private readonly worker: Worker, readonly model: string, readonly dimension: number, dir: string, parameters: HnswParameters,
    backlogLimit: number, onInsertFailure: (error: Error) => void, onThreadExit: (error: Error) => void,
  ) {
    this.calls = new WorkerCalls(worker, 'vector index thread', (error) => { if (!this.closing) onThreadExit(error); });
    worker.on('message', (reply: IndexReply) => {
      this.knownSize = reply.size;
      this.knownWaiting = reply.waiting;
      if (reply.id === INSERT_FAILURE_ID && !reply.ok) {
        onInsertFailure(new Error(`vector index: ${reply.error}`));
        return;
      }
      this.calls.settle(reply.id, reply.ok ? reply : { ok: false, error: new Error(`vector index: ${reply.error}`) });
    });
    this.loaded = this.call({ op: 'open', dir, model, dimension, parameters, backlogLimit }).then((value) => (value as { loaded: boolean }).loaded);
  }

  /** Starts the index thread and begins loading the saved graph; does not wait for the load (see `loaded`). */
  static open(
    dir: string, model: string, dimension: number, parameters: HnswParameters = DEFAULT_HNSW_PARAMETERS,
    options: ThreadedIndexOptions = {},
  ): ThreadedVectorIndex {
    const worker = startModuleWorker(import.meta.url, 'usearch-index.worker', ['usearch']);
    return new ThreadedVectorIndex(worker, model, dimension, dir, parameters, options.backlogLimit ?? DEFAULT_BACKLOG_LIMIT,
      options.onInsertFailure ?? (() => undefined), options.onThreadExit ?? (() => undefined));
  }

  /** The open graph's parameters: a loaded graph's own connectivity, the configured expansions. */
  async graphParameters(): Promise<HnswParameters> {
    await this.loaded;
    return (await this.call({ op: 'parameters' })) as HnswParameters;
  }

  size(): number {
    return this.knownSize;
  }

  waiting(): number {
    return this.knownWaiting;
  }

  async add(keys: readonly number[], vectors: readonly Float32Array[]): Promise<void> {
    if (keys.length === 0) return;
    const matrix = new Float32Array(keys.length * this.dimension);
    vectors.forEach((vector, i) => matrix.set(vector, i * this.dimension));
    await this.call({ op: 'add', keys: [...keys], matrix }, [matrix.buffer]);
  }

  async flush(): Promise<void> {
    await this.call({ op: 'flush' });
  }

  async remove(keys: readonly number[]): Promise<void> {
    if (keys.length === 0) return;
    await this.call({ op: 'remove', keys: [...keys] });
  }

  async search(query: Float32Array, k: number): Promise<ScoredKey[]> {
    const found = (await this.call({ op: 'search', query, k })) as SearchReply;
    return found.keys.map((key, i) => ({ key, score: found.scores[i]! }));
  }

  async missing(keys: readonly number[]): Promise<number[]> {
    if (keys.length === 0) return [];
    return (await this.call({ op: 'missing', keys: [...keys] })) as number[];
  }

  async save(scope: SaveScope = 'every-change'): Promise<void> {
    await this.call({ op: 'save', scope });
  }

  async clear(): Promise<void> {
    await this.call({ op: 'clear' });
  }

  /**
   * Stops the thread. It is first told to stop inserting: terminated inside a native usearch call, the thread
   * aborts the whole process (a Napi::Error thrown while its environment shuts down). A thread that does not
   * answer within CLOSE_WAIT_MS is terminated anyway.
   */
  async close(): Promise<void> {
    this.closing = true;
    let timer: NodeJS.Timeout | undefined;
    const waited = new Promise<void>((resolve) => { timer = setTimeout(resolve, CLOSE_WAIT_MS); });
    await Promise.race([this.call({ op: 'close' }).catch(() => undefined), waited]);
    clearTimeout(timer);
    await this.worker.terminate();
  }

  private call(request: IndexRequest, transfer: ArrayBuffer[] = []): Promise<unknown> {
    return this.calls.send(request, transfer);
  }
}
