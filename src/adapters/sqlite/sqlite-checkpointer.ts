import type { Worker } from 'node:worker_threads';
import { startModuleWorker } from '../vector/module-worker.js';
import { WorkerCalls, type WithoutId } from '../worker-calls.js';
import type { SqliteOpenOptions } from './sqlite-database.js';

export type CheckpointerRequest =
  | { id: number; op: 'open'; file: string; options: Pick<SqliteOpenOptions, 'synchronous'>; intervalMs: number }
  | { id: number; op: 'close' };

export type CheckpointerReply = { id: number; ok: true } | { id: number; ok: false; error: string };

/** How often the WAL is copied back into the database file. */
export const CHECKPOINT_INTERVAL_MS = 200;

/**
 * Copies the WAL back into the database file from a thread of its own, so that the writer thread seldom does.
 * A checkpoint copies pages and fsyncs the file: done by the writer (SQLite's automatic checkpoint, in the commit
 * that crosses its threshold), it held every write queued behind it for the copy and the fsync. The writer's
 * automatic checkpoint stays as the backstop (sqlite-database.ts): it finds the pages already copied, or takes
 * over should this thread fail.
 */
export class SqliteCheckpointer {
  private readonly calls: WorkerCalls;

  private constructor(private readonly worker: Worker) {
    this.calls = new WorkerCalls(worker, 'SQLite checkpoint thread');
    worker.on('message', (reply: CheckpointerReply) => {
      this.calls.settle(reply.id, reply.ok ? { ok: true, value: null } : { ok: false, error: new Error(reply.error) });
    });
  }

  /** Starts the thread; `onError` hears why it could not open (the writer's backstop then does the work). */
  static start(file: string, options: Pick<SqliteOpenOptions, 'synchronous'>, onError: (error: string) => void,
    intervalMs = CHECKPOINT_INTERVAL_MS): SqliteCheckpointer {
    const checkpointer = new SqliteCheckpointer(startModuleWorker(import.meta.url, 'sqlite-checkpointer.worker', ['better-sqlite3']));
    checkpointer.call({ op: 'open', file, options, intervalMs }).catch((error: Error) => onError(error.message));
    return checkpointer;
  }

  /** Stops checkpointing, closes the thread's connection (after a checkpoint under way) and ends the thread. */
  async close(): Promise<void> {
    if (!this.calls.failed) await this.call({ op: 'close' }).catch(() => undefined);
    await this.worker.terminate();
  }

  private call(request: WithoutId<CheckpointerRequest>): Promise<unknown> {
    return this.calls.send(request);
  }
}
