import type { SearchFilter } from '../domain/search.js';

/** A message waiting for its vector, with the neighbouring messages that give it context. */
export interface PendingMessage {
  key: number;
  content: string;
  previous?: string;
  next?: string;
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
  nextPending(limit: number): Promise<PendingMessage[]>;
  /** Stores vectors and marks their messages done, atomically; returns the keys stored (deleted messages are skipped). */
  complete(model: string, items: ReadonlyArray<{ key: number; vector: Float32Array }>): Promise<number[]>;
  /** Records a failed attempt; after maxAttempts the message is marked failed (retried by a rebuild). */
  recordFailure(keys: readonly number[], error: string, maxAttempts: number): Promise<void>;
  counts(): Promise<EmbeddingCounts>;
  /** Clears every vector and marks every message pending, for a rebuild. */
  resetAll(): Promise<void>;
  /** All stored vectors in key order, in chunks, for rebuilding the approximate index. */
  allVectors(chunkSize: number): AsyncIterable<Array<{ key: number; vector: Float32Array }>>;
  /** The keys of all stored vectors in key order, in pages (the index's catch-up after a start). */
  vectorKeys(pageSize: number): AsyncIterable<number[]>;
  /** Stored vectors of these keys (keys without a vector are left out), in no particular order. */
  vectorsByKey(keys: readonly number[]): Promise<Array<{ key: number; vector: Float32Array }>>;
  /** Stored vectors of messages passing the filter (for exact search when few match). */
  vectorsMatching(filter: SearchFilter, limit: number): Promise<Array<{ key: number; vector: Float32Array }>>;
  countVectorsMatching(filter: SearchFilter, limit: number): Promise<number>;
  recordedModel(): Promise<EmbeddingModelInfo | null>;
  recordModel(info: EmbeddingModelInfo): Promise<void>;
}
