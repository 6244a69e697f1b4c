import type { ScoredKey, SearchFilter } from '../domain/search.js';

/**
 * Nearest messages by meaning. Each storage driver owns its filtering
 * strategy: the SQLite driver searches its HNSW index, or exactly when a
 * filter leaves few candidates; Postgres asks pgvector.
 */
export interface VectorSearch {
  /**
   * Up to k keys of messages passing the filter, by cosine similarity (-1..1) to `vector`, best first.
   *
   * `alsoRank`: keys another index found for the same query (the full text's best matches for its words). They
   * are scored exactly beside the approximate index's candidates, so a message that the graph's routing does not
   * reach (a short question is far from every message's neighbourhood) is still found when its words lead to
   * it. Scores and order stay cosine; keys the filter refuses, or without a stored vector, are dropped.
   */
  nearest(vector: Float32Array, filter: SearchFilter, k: number, alsoRank?: readonly number[]): Promise<ScoredKey[]>;
}
