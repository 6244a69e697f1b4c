import type { Database } from 'better-sqlite3';
import type { Worker } from 'node:worker_threads';
import { exactTopK } from '../../domain/exact-search.js';
import type { ScoredKey, SearchFilter } from '../../domain/search.js';
import { startModuleWorker } from '../vector/module-worker.js';
import { WorkerCalls, type WithoutId } from '../worker-calls.js';
import { StatementCache } from './sqlite-statements.js';
import { matchingVectors } from './sqlite-stored-vectors.js';

/** The `depth` stored vectors nearest `query` (cosine, exact) among at most `limit` that `filter` admits. */
export type ExactScan = (query: Float32Array, filter: SearchFilter, limit: number, depth: number) => Promise<ScoredKey[]>;

export type ScanRequest =
  | { id: number; op: 'open'; file: string }
  | { id: number; op: 'scan'; query: Float32Array; filter: SearchFilter; limit: number; depth: number }
  | { id: number; op: 'close' };

export type ScanReply = { id: number; ok: true; value: ScoredKey[] | null } | { id: number; ok: false; error: string };

/** The scan on the calling thread's connection. */
export function exactScanOn(db: Database): ExactScan {
  const statements = new StatementCache(db);
  return async (query, filter, limit, depth) => exactTopK(query, matchingVectors(statements, filter, limit, query.length), depth);
}

/**
 * Exact scans on a thread of their own (sqlite-exact-scan.worker.ts), with its own read-only connection. A
 * filtered search that admits few vectors ranks them all exactly: at 1,070,000 messages, 10,200 vectors take
 * ~70 ms, nearly all of it reading their pages. On the request thread that held every other request as long,
 * and back-to-back filtered questions raised the event-loop delay until admission control shed them as
 * overload.
 *
 * The thread starts on the first scan, not with the service: starting one more thread slowed the start-up of
 * a 100,000-message store by ~1.5 s (under tsx) though most stores' first filtered search comes much later.
 * Until it has opened its connection, and for good should it fail, scans run on the request thread (`fallback`).
 */
export class SqliteScanThread {
  private thread: { worker: Worker; calls: WorkerCalls; opened: Promise<boolean> } | null = null;
  private ready = false;
  /** Closed with the storage: a search still under way scans on the request thread and starts no thread. */
  private closed = false;

  constructor(private readonly file: string, private readonly fallback: ExactScan) {}

  readonly scan: ExactScan = async (query, filter, limit, depth) => {
    if (!this.ready || this.closed) {
      void this.warmUp();
      return this.fallback(query, filter, limit, depth);
    }
    const { calls } = this.thread!;
    if (calls.failed) return this.fallback(query, filter, limit, depth);
    try {
      // A copy: a view's whole underlying buffer would otherwise be cloned with it.
      return (await calls.send({ op: 'scan', query: query.slice(), filter, limit, depth } satisfies WithoutId<ScanRequest>)) as ScoredKey[];
    } catch {
      return this.fallback(query, filter, limit, depth);
    }
  };

  /** Starts the thread if it has not been: true once its connection is open, false if it could not open. */
  warmUp(): Promise<boolean> {
    if (this.closed) return Promise.resolve(false);
    if (!this.thread) {
      const worker = startModuleWorker(import.meta.url, 'sqlite-exact-scan.worker', ['better-sqlite3']);
      const calls = new WorkerCalls(worker, 'SQLite exact-scan thread');
      worker.on('message', (reply: ScanReply) => {
        calls.settle(reply.id, reply.ok ? { ok: true, value: reply.value } : { ok: false, error: new Error(reply.error) });
      });
      const opened = calls.send({ op: 'open', file: this.file } satisfies WithoutId<ScanRequest>).then(
        () => { this.ready = true; return true; },
        // Scans stay on the request thread for good: the idle thread has nothing left to do.
        async () => { await worker.terminate(); return false; },
      );
      this.thread = { worker, calls, opened };
    }
    return this.thread.opened;
  }

  /** Waits for the scans under way, closes the thread's connection and ends the thread. */
  async close(): Promise<void> {
    this.closed = true;
    if (!this.thread) return;
    const { worker, calls } = this.thread;
    if (!calls.failed) await calls.send({ op: 'close' } satisfies WithoutId<ScanRequest>).catch(() => undefined);
    await worker.terminate();
  }
}
