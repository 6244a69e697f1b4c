import type { ScoredKey, SearchFilter } from '../domain/search.js';

/**
 * Nearest messages by meaning. Each storage driver owns its filtering
 * strategy: the SQLite driver searches its HNSW index, or exactly when a
 * filter leaves few candidates; Postgres asks pgvector.
 */
export interface VectorSearch {
  /** Up to k keys of messages passing the filter, by cosine similarity (-1..1) to `vector`, best first. */
  nearest(vector: Float32Array, filter: SearchFilter, k: number): Promise<ScoredKey[]>;
}
