/** A message waiting for its vector: its own text is what is embedded. */
export interface PendingMessage {
  key: number;
  content: string;
  attempts: number;
}

export interface EmbeddingCounts {
  pending: number;
  done: number;
  failed: number;
}

export interface EmbeddingModelInfo {
  model: string;
  dimension: number;
}

/**
 * The durable embedding queue and vector store (source of truth for the
 * approximate index). Pending work lives with the messages themselves, so
 * nothing acknowledged is lost across a restart or crash.
 */
export interface EmbeddingQueue {
  /**
   * Claims up to `limit` pending messages for this worker, oldest first. A
   * claim lapses after the lease, so what a worker that died held is claimed
   * again by another; messages claimed by a live worker are skipped.
   */
  claimPending(limit: number, leaseMs: number): Promise<PendingMessage[]>;
  /**
   * Hands claimed messages back before their lease lapses (a batch the bridge could not embed this time), so the next
   * claim takes them again at once rather than a lease later. Messages already done or failed are left alone.
   */
  release(keys: readonly number[]): Promise<void>;
  /** Stores vectors and marks their messages done (releasing their claims), atomically; returns the keys stored (deleted messages are skipped). */
  complete(model: string, items: ReadonlyArray<{ key: number; vector: Float32Array }>): Promise<number[]>;
  /** Records a failed attempt; after maxAttempts the message is marked failed (retried by a rebuild). */
  recordFailure(keys: readonly number[], error: string, maxAttempts: number): Promise<void>;
  /** `within`: only messages of conversations in these subtrees (a tenant's; none counts nothing). */
  counts(within?: readonly string[]): Promise<EmbeddingCounts>;
  /** Messages waiting for their vector: `counts().pending` from the pending index alone, cheap enough for every search. */
  /** `within`: only messages of conversations in these subtrees (read through the pending index: cheap while few wait). */
  pendingCount(within?: readonly string[]): Promise<number>;
  /**
   * The timestamp of the pending message that arrived first (for /health/detailed), null when none waits.
   * That is the message's own timestamp: for an imported message, its original time.
   */
  oldestPendingTimestamp(): Promise<string | null>;
  /** Clears every vector and marks every message pending, for a rebuild; returns how many messages it marked. */
  resetAll(): Promise<number>;
  /** The keys of all stored vectors in key order, in pages (the index's catch-up after a start). */
  vectorKeys(pageSize: number): AsyncIterable<number[]>;
  /** Stored vectors of these keys (keys without a vector are left out), in no particular order. */
  vectorsByKey(keys: readonly number[]): Promise<Array<{ key: number; vector: Float32Array }>>;
  recordedModel(): Promise<EmbeddingModelInfo | null>;
  /** Records the model when none is recorded yet; returns the model recorded now (the first writer's). */
  recordModel(info: EmbeddingModelInfo): Promise<EmbeddingModelInfo>;
}
