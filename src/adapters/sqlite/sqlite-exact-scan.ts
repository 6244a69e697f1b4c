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
 * overload. Should the thread fail, scans run on the request thread again (`fallback`).
 */
export class SqliteScanThread {
  private readonly calls: WorkerCalls;

  private constructor(private readonly worker: Worker, private readonly fallback: ExactScan) {
    this.calls = new WorkerCalls(worker, 'SQLite exact-scan thread');
    worker.on('message', (reply: ScanReply) => {
      this.calls.settle(reply.id, reply.ok ? { ok: true, value: reply.value } : { ok: false, error: new Error(reply.error) });
    });
  }

  /** Starts the thread and opens its connection (the file must exist and be migrated). */
  static start(file: string, fallback: ExactScan): SqliteScanThread {
    const thread = new SqliteScanThread(startModuleWorker(import.meta.url, 'sqlite-exact-scan.worker', ['better-sqlite3']), fallback);
    // A thread that cannot open fails its calls: the fallback answers them.
    thread.call({ op: 'open', file }).catch(() => undefined);
    return thread;
  }

  readonly scan: ExactScan = async (query, filter, limit, depth) => {
    if (this.calls.failed) return this.fallback(query, filter, limit, depth);
    try {
      // A copy: a view's whole underlying buffer would otherwise be cloned with it.
      return (await this.call({ op: 'scan', query: query.slice(), filter, limit, depth })) as ScoredKey[];
    } catch {
      return this.fallback(query, filter, limit, depth);
    }
  };

  /** Waits for the scans under way, closes the thread's connection and ends the thread. */
  async close(): Promise<void> {
    if (!this.calls.failed) await this.call({ op: 'close' }).catch(() => undefined);
    await this.worker.terminate();
  }

  private call(request: WithoutId<ScanRequest>): Promise<unknown> {
    return this.calls.send(request);
  }
}
