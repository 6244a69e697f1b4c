import type { MessageHit, ScoredKey, SearchFilter } from '../domain/search.js';

export interface FullTextOptions {
  /**
   * Weight of the neighbouring messages' words relative to the message's own
   * (1). 0 searches the message's own words only, as an explicit query expects.
   */
  contextWeight: number;
}

/** Read side of search over the relational store: full-text ranking, filtering and hydration of hits. */
export interface MessageSearchReader {
  /**
   * Full-text matches for an FTS5 MATCH expression, best first, with BM25
   * relevance as a positive score. Throws InvalidQueryError for bad syntax.
   */
  fullText(match: string, filter: SearchFilter, limit: number, options?: FullTextOptions): Promise<ScoredKey[]>;
  /** For each key, the keys of the messages right before and after it in its conversation that pass the filter. */
  neighbours(keys: readonly number[], filter: SearchFilter): Promise<Map<number, number[]>>;
  /** The subset of keys whose messages exist and pass the filter. */
  keysMatching(keys: readonly number[], filter: SearchFilter): Promise<Set<number>>;
  /** Messages for keys, in the order given; unknown keys are skipped. */
  hydrate(keys: readonly number[]): Promise<MessageHit[]>;
}
