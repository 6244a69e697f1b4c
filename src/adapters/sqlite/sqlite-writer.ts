import type { Worker } from 'node:worker_threads';
import { startModuleWorker } from '../vector/module-worker.js';
import type { SqliteOpenOptions } from './sqlite-database.js';
import {
  deserializeError, WRITE_METHODS, type WriterReply, type WriterRequest, type WriterTarget,
} from './sqlite-writer.protocol.js';

type Distributive<T> = T extends unknown ? Omit<T, 'id'> : never;

/**
 * Runs the store's writes on a thread of their own (sqlite-writer.worker.ts), with its own connection to the
 * same WAL database. Storing a message costs about 110 µs of CPU (most of it the full-text index), and on the
 * request thread that cost capped acknowledged ingest: at 200,000 messages the request thread sat at 100% of
 * a core while the machine had most of another to spare. Reads stay on the request thread's connection and
 * see a write as soon as its call resolves (the writer has committed by then). Writes run one at a time in the
 * order they were called, as they did on one connection.
 */
export class SqliteWriter {
  private nextId = 1;
  private readonly pending = new Map<number, { resolve: (value: unknown) => void; reject: (error: Error) => void }>();
  private failure: Error | null = null;

  private constructor(private readonly worker: Worker) {
    worker.on('message', (reply: WriterReply) => {
      const waiter = this.pending.get(reply.id);
      if (!waiter) return;
      this.pending.delete(reply.id);
      if (this.pending.size === 0) worker.unref();
      if (reply.ok) waiter.resolve(reply.value);
      else waiter.reject(deserializeError(reply.error));
    });
    const fail = (error: Error) => {
      this.failure ??= error;
      for (const waiter of this.pending.values()) waiter.reject(error);
      this.pending.clear();
    };
    worker.on('error', fail);
    worker.on('exit', (code) => fail(new Error(`SQLite writer thread exited (code ${code})`)));
    // The thread keeps the process alive only while a write is owed an answer.
    worker.unref();
  }

  /** Starts the thread and opens its connection (the file must exist and be migrated). */
  static start(file: string, options: Pick<SqliteOpenOptions, 'synchronous' | 'maxSizeMb'>): SqliteWriter {
    const writer = new SqliteWriter(startModuleWorker(import.meta.url, 'sqlite-writer.worker', ['better-sqlite3']));
    // Any failure to open also fails every later call, which is where it is reported.
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
    return new Proxy(local, {
      get: (object, property) => {
        if (routed.has(property)) return routed.get(property);
        const value = Reflect.get(object, property, object) as unknown;
        return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(object) : value;
      },
    });
  }

  /** Waits for the writes already called, closes the thread's connection and ends the thread. */
  async close(): Promise<void> {
    if (!this.failure) await this.call({ op: 'close' }).catch(() => undefined);
    await this.worker.terminate();
  }

  private call(request: Distributive<WriterRequest>): Promise<unknown> {
    if (this.failure) return Promise.reject(this.failure);
    const id = this.nextId;
    this.nextId += 1;
    return new Promise((resolve, reject) => {
      if (this.pending.size === 0) this.worker.ref();
      this.pending.set(id, { resolve, reject });
      this.worker.postMessage({ ...request, id });
    });
  }
}
