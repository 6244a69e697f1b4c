import type { Database } from 'better-sqlite3';
import type { Worker } from 'node:worker_threads';
import { exactTopK } from '../../domain/exact-search.js';
import type { ScoredKey, SearchFilter } from '../../domain/search.js';
import { startModuleWorker } from '../vector/module-worker.js';
import { WorkerCalls, type WithoutId } from '../worker-calls.js';
import { admittedThroughMap, type KeyConversations } from './key-conversations.js';
import { admittedKeys } from './sqlite-admitted-keys.js';
import { StatementCache } from './sqlite-statements.js';
import { matchingVectors, storedVectors } from './sqlite-stored-vectors.js';

/** The `depth` stored vectors nearest `query` (cosine, exact) among at most `limit` that `filter` admits. */
export type ExactScan = (query: Float32Array, filter: SearchFilter, limit: number, depth: number) => Promise<ScoredKey[]>;
/** The `depth` of `keys` nearest `query` by their stored vectors (cosine, exact): the re-rank of the index's candidates. */
export type ExactRerank = (query: Float32Array, keys: readonly number[], depth: number) => Promise<ScoredKey[]>;

/** The keys among `keys` whose message `filter` admits (admittedKeys); `share`: the part of the vectors it admits, about. */
export type FilterAdmit = (keys: readonly number[], filter: SearchFilter, options: { selective: boolean; share: number }) => Promise<number[]>;

/**
 * The reads of stored vectors a semantic search makes: those of a filtered search that visit every match of its filter
 * (tens of milliseconds at a million), and the re-rank of every search's candidates (a few milliseconds).
 */
export interface FilterReads {
  scan: ExactScan;
  rerank: ExactRerank;
  /** The filter's check of the index's candidates. */
  admit: FilterAdmit;
}

export type FilterReadRequest =
  | { id: number; op: 'open'; file: string }
  | { id: number; op: 'scan'; query: Float32Array; filter: SearchFilter; limit: number; depth: number }
  | { id: number; op: 'rerank'; query: Float32Array; keys: readonly number[]; depth: number }
  | { id: number; op: 'admit'; keys: readonly number[]; filter: SearchFilter; selective: boolean; share: number }
  | { id: number; op: 'close' };

export type FilterReadReply =
  | { id: number; ok: true; value: ScoredKey[] | number[] | null }
  | { id: number; ok: false; error: string };

/**
 * Starts the filter-read thread once a loaded index holds more vectors than an exact scan may read (`exactScanLimit`,
 * search.exact_max_candidates): a store that large answers its filtered searches with scans that cost tens
 * of milliseconds, and until the thread has started (about 1.5 s under tsx) they run on the request thread, the last
 * one-time stall after a start that a profile of the scale bench showed (bench/NOTES.md, session 23). A smaller
 * store starts it at its first semantic search (the re-rank reads through it too): its reads are cheap meanwhile.
 */
export async function warmUpForLargeIndex(
  index: { loaded: Promise<unknown>; size(): number }, thread: { warmUp(): Promise<boolean> }, exactScanLimit: number,
): Promise<boolean> {
  try {
    await index.loaded;
  } catch {
    return false;
  }
  return index.size() > exactScanLimit ? thread.warmUp() : false;
}

/**
 * The reads on the calling thread's connection. With `keyConversations` (the filter-read thread's), the filter's check
 * of candidates goes through that map when it pays (admittedThroughMap), else key by key in SQL.
 */
export function filterReadsOn(db: Database, keyConversations?: KeyConversations): FilterReads {
  const statements = new StatementCache(db);
  return {
    scan: async (query, filter, limit, depth) => exactTopK(query, matchingVectors(statements, filter, limit, query.length), depth),
    rerank: async (query, keys, depth) => exactTopK(query, storedVectors(statements, keys, query.length), depth),
    admit: async (keys, filter, options) => (keyConversations
      ? admittedThroughMap(statements, keyConversations, keys, filter, options)
      : admittedKeys(statements, keys, filter, options.selective)),
  };
}

/**
 * Filter reads on a thread of their own (sqlite-filter-reads.worker.ts), with its own read-only connection:
 * - an exact scan ranks every vector a selective filter admits: at 1,070,000 messages, 10,200 vectors take
 *   ~70 ms, nearly all of it reading their pages.
 * On the request thread it held every other request as long, and back-to-back filtered questions raised the
 * event-loop delay until admission control shed them as overload.
 * - the re-rank of the index's candidates reads their stored vectors (216 for a context assembly's 200): done here,
 *   the request thread goes on with the question's full text meanwhile, and this connection's page cache keeps the
 *   vector pages that the request thread's other reads pushed out of its own. At 1,020,067 vectors, back to back
 *   (600 questions a mode; bench/NOTES.md, session 24): context assembly p50 33.0 → 30.8 ms, semantic p50 8.63 → 6.77 ms.
 *
 * The thread starts on the first read, or once a large store's index has loaded (warmUpForLargeIndex), not with the
 * service: starting one more thread slowed the start-up of a 100,000-message store by ~1.5 s (under tsx).
 * Until it has opened its connection, and for good should it fail, reads run on the request thread (`fallback`).
 */
export class SqliteFilterReadThread implements FilterReads {
  private thread: { worker: Worker; calls: WorkerCalls; opened: Promise<boolean> } | null = null;
  private ready = false;
  /** Closed with the storage: a search still under way reads on the request thread and starts no thread. */
  private closed = false;

  constructor(private readonly file: string, private readonly fallback: FilterReads) {}

  readonly scan: ExactScan = (query, filter, limit, depth) => this.onThread(
    // A copy: a view's whole underlying buffer would otherwise be cloned with it.
    { op: 'scan', query: query.slice(), filter, limit, depth },
    () => this.fallback.scan(query, filter, limit, depth),
  );

  readonly rerank: ExactRerank = (query, keys, depth) => this.onThread(
    { op: 'rerank', query: query.slice(), keys, depth },
    () => this.fallback.rerank(query, keys, depth),
  );

  readonly admit: FilterAdmit = (keys, filter, options) => this.onThread(
    { op: 'admit', keys, filter, ...options },
    () => this.fallback.admit(keys, filter, options),
  );

  /** `request` on the thread once it is ready, `here` (the same read on the request thread) until then or if it fails. */
  private async onThread<T>(request: WithoutId<FilterReadRequest>, here: () => Promise<T>): Promise<T> {
    if (!this.ready || this.closed) {
      void this.warmUp();
      return here();
    }
    const { calls } = this.thread!;
    if (calls.failed) return here();
    try {
      return (await calls.send(request)) as T;
    } catch {
      return here();
    }
  }

  /** Starts the thread if it has not been: true once its connection is open, false if it could not open. */
  warmUp(): Promise<boolean> {
    if (this.closed) return Promise.resolve(false);
    if (!this.thread) {
      const worker = startModuleWorker(import.meta.url, 'sqlite-filter-reads.worker', ['better-sqlite3']);
      const calls = new WorkerCalls(worker, 'SQLite filter-read thread');
      worker.on('message', (reply: FilterReadReply) => {
        calls.settle(reply.id, reply.ok ? { ok: true, value: reply.value } : { ok: false, error: new Error(reply.error) });
      });
      const opened = calls.send({ op: 'open', file: this.file } satisfies WithoutId<FilterReadRequest>).then(
        () => { this.ready = true; return true; },
        // Reads stay on the request thread for good: the idle thread has nothing left to do.
        async () => { await worker.terminate(); return false; },
      );
      this.thread = { worker, calls, opened };
    }
    return this.thread.opened;
  }

  /** Waits for the reads under way, closes the thread's connection and ends the thread. */
  async close(): Promise<void> {
    this.closed = true;
    if (!this.thread) return;
    const { worker, calls } = this.thread;
    if (!calls.failed) await calls.send({ op: 'close' } satisfies WithoutId<FilterReadRequest>).catch(() => undefined);
    await worker.terminate();
  }
}
