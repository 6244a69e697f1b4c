import { once } from 'node:events';
import type { Worker } from 'node:worker_threads';
import { startModuleWorker } from '../vector/module-worker.js';
import type { SqliteOpenOptions } from './sqlite-database.js';

export type CheckpointerRequest =
  | { op: 'open'; file: string; options: Pick<SqliteOpenOptions, 'synchronous'>; intervalMs: number }
  | { op: 'close' };

export type CheckpointerReply = { op: 'opened' } | { op: 'failed'; error: string } | { op: 'closed' };

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
  private ended = false;

  private constructor(private readonly worker: Worker) {
    worker.once('exit', () => { this.ended = true; });
  }

  /** Starts the thread; `onError` hears why it could not open (the writer's backstop then does the work). */
  static start(file: string, options: Pick<SqliteOpenOptions, 'synchronous'>, onError: (error: string) => void,
    intervalMs = CHECKPOINT_INTERVAL_MS): SqliteCheckpointer {
    const worker = startModuleWorker(import.meta.url, 'sqlite-checkpointer.worker', ['better-sqlite3']);
    worker.unref();
    worker.on('message', (reply: CheckpointerReply) => {
      if (reply.op === 'failed') onError(reply.error);
    });
    worker.on('error', (error) => onError(error.message));
    worker.postMessage({ op: 'open', file, options, intervalMs } satisfies CheckpointerRequest);
    return new SqliteCheckpointer(worker);
  }

  /** Stops checkpointing and closes the thread's connection. */
  async close(): Promise<void> {
    if (this.ended) return;
    // Held open until the thread has closed its connection (a checkpoint may be running).
    this.worker.ref();
    const exited = once(this.worker, 'exit').catch(() => undefined);
    this.worker.postMessage({ op: 'close' } satisfies CheckpointerRequest);
    await exited;
  }
}
