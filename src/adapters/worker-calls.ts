import type { Worker } from 'node:worker_threads';

/** A request as its sender writes it: WorkerCalls.send adds the id (distributes over a union of requests). */
export type WithoutId<Request> = Request extends unknown ? Omit<Request, 'id'> : never;

/**
 * Requests sent to a worker thread and waiting for their answers: each gets an id, its promise is settled by
 * the reply with that id, and all of them fail at once if the thread dies. The thread keeps the process alive
 * only while it owes an answer (an idle thread must not hold a script or a test open).
 */
export class WorkerCalls {
  private nextId = 1;
  private readonly waiting = new Map<number, { resolve: (value: unknown) => void; reject: (error: Error) => void }>();
  private failure: Error | null = null;

  /** `onFailure`: told once, with the first error, when the thread dies (an error it did not catch, or its exit). */
  constructor(private readonly worker: Worker, threadName: string, private readonly onFailure?: (error: Error) => void) {
    worker.on('error', (error) => this.fail(error));
    worker.on('exit', (code) => this.fail(new Error(`${threadName} exited (code ${code})`)));
    worker.unref();
  }

  get failed(): boolean {
    return this.failure !== null;
  }

  /** Posts `request` with a new id; resolves or rejects with the reply `settle` gets for that id. */
  send(request: object, transfer: ArrayBuffer[] = []): Promise<unknown> {
    if (this.failure) return Promise.reject(this.failure);
    const id = this.nextId;
    this.nextId += 1;
    return new Promise((resolve, reject) => {
      if (this.waiting.size === 0) this.worker.ref();
      this.waiting.set(id, { resolve, reject });
      this.worker.postMessage({ ...request, id }, transfer);
    });
  }

  /** The reply to request `id` (a reply nobody waits for is ignored). */
  settle(id: number, outcome: { ok: true; value: unknown } | { ok: false; error: Error }): void {
    const waiter = this.waiting.get(id);
    if (!waiter) return;
    this.waiting.delete(id);
    if (this.waiting.size === 0) this.worker.unref();
    if (outcome.ok) waiter.resolve(outcome.value);
    else waiter.reject(outcome.error);
  }

  private fail(error: Error): void {
    if (this.failure === null) {
      this.failure = error;
      this.onFailure?.(error);
    }
    for (const waiter of this.waiting.values()) waiter.reject(error);
    this.waiting.clear();
  }
}
