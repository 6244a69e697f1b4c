import type { Worker } from 'node:worker_threads';
import { startModuleWorker } from '../vector/module-worker.js';
import { WorkerCalls, type WithoutId } from '../worker-calls.js';
import type { SqliteOpenOptions } from './sqlite-database.js';
import {
  deserializeError, WRITE_METHODS, type WriterReply, type WriterRequest, type WriterTarget,
} from './sqlite-writer.protocol.js';

/**
 * Runs the store's writes on a thread of their own (sqlite-writer.worker.ts), with its own connection to the
 * same WAL database. Storing a message costs about 100 µs of CPU (most of it the full-text index): on the
 * request thread, a bulk ingest kept the thread that answers every request busy (94-100% of a core at 200,000
 * messages; 20-40% with the writer thread). Reads stay on the request thread's connection and see a write as
 * soon as its call resolves (the writer has committed by then). Writes are stored in the order they were
 * called; those that arrive together commit together.
 */
export class SqliteWriter {
  private readonly calls: WorkerCalls;

  private constructor(private readonly worker: Worker) {
    this.calls = new WorkerCalls(worker, 'SQLite writer thread');
    worker.on('message', (reply: WriterReply) => {
      this.calls.settle(reply.id, reply.ok ? reply : { ok: false, error: deserializeError(reply.error) });
    });
  }

  /** Starts the thread and opens its connection (the file must exist and be migrated). */
  static start(file: string, options: Pick<SqliteOpenOptions, 'synchronous' | 'maxSizeMb'>): SqliteWriter {
    const writer = new SqliteWriter(startModuleWorker(import.meta.url, 'sqlite-writer.worker', ['better-sqlite3']));
    // A failure to open fails every later call with the same error, which is where it is reported.
    writer.call({ op: 'open', file, options }).catch(() => undefined);
    return writer;
  }

  /**
   * `local` with its write methods (WRITE_METHODS[target]) run on the writer thread; every other method is
   * the local one. Arguments and results cross by structured clone (plain data, typed arrays).
   */
  route<T extends object>(target: WriterTarget, local: T): T {
    const writes = new Set<PropertyKey>(WRITE_METHODS[target]);
    const routed = new Map<PropertyKey, unknown>();
    for (const method of writes) {
      routed.set(method, (...args: unknown[]) => this.call({ op: 'call', target, method: String(method), args }));
    }
    // Every request reads through here: a local method is bound once, on first use, not on every access.
    return new Proxy(local, {
      get: (object, property) => {
        if (routed.has(property)) return routed.get(property);
        const value = Reflect.get(object, property, object) as unknown;
        if (typeof value !== 'function') return value;
        const bound = (value as (...args: unknown[]) => unknown).bind(object);
        routed.set(property, bound);
        return bound;
      },
    });
  }

  /** Waits for the writes already called, closes the thread's connection and ends the thread. */
  async close(): Promise<void> {
    if (!this.calls.failed) await this.call({ op: 'close' }).catch(() => undefined);
    await this.worker.terminate();
  }

  private call(request: WithoutId<WriterRequest>): Promise<unknown> {
    return this.calls.send(request);
  }
}
