import type { ScoredKey, SearchFilter } from '../domain/search.js';

/**
 * Nearest messages by meaning. Each storage driver owns its filtering
 * strategy: the SQLite driver searches its HNSW index, or exactly when a
 * filter leaves few candidates; Postgres asks pgvector.
 */
export interface VectorSearch {
  /**
   * Up to k keys of messages passing the filter, by cosine similarity (-1..1) to `vector`, best first. The first
   * `exact` (k when absent) come in exact order with exact scores; a driver may rank the rest by its index's
   * approximate scores (never above the last exact one): a caller showing 10 of them needs only those exact.
   */
  nearest(vector: Float32Array, filter: SearchFilter, k: number, exact?: number): Promise<ScoredKey[]>;
}
