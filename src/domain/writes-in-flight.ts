/**
 * The writes of messages (creates, appends, imports) waiting for their acknowledgement, counted where they are stored,
 * so background work can tell clients waiting on the store from a quiet moment: the embedding worker leaves the cores
 * to them for a while (embedding.worker.ts, `embedding_worker.max_yield_ms`).
 */
export class WritesInFlight {
  private count = 0;

  waiting(): number {
    return this.count;
  }

  async around<T>(write: () => Promise<T>): Promise<T> {
    this.count += 1;
    try {
      return await write();
    } finally {
      this.count -= 1;
    }
  }
}
