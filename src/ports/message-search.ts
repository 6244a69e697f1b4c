import type { FullTextQuery } from '../domain/full-text-query.js';
import type { MessageHit, ScoredKey, SearchFilter } from '../domain/search.js';

export interface FullTextOptions {
  /**
   * Weight of the neighbouring messages' words relative to the message's own
   * (1). 0 searches the message's own words only, as an explicit query expects.
   */
  contextWeight: number;
  /**
   * Take the terms' rarity from the messages the filter admits instead of the
   * whole store (BM25's idf over the searched scope). Only for a plain OR of
   * terms; drivers without BM25 statistics ignore it.
   */
  scopedStatistics?: boolean;
  /**
   * A term in more than this share of the newest messages (and in more of them than one query scores) is
   * common: the query is ranked by its other terms, and matches holding only common terms follow, newest
   * first. Default 0.5, where BM25 itself gives such a term no weight. Drivers that count every match ignore it.
   */
  commonShare?: number;
}

/** Read side of search over the relational store: full-text ranking, filtering and hydration of hits. */
export interface MessageSearchReader {
  /**
   * Full-text matches for a parsed query, best first, with relevance as a
   * positive score (BM25 or the driver's nearest equivalent). Words are
   * matched after English stemming.
   */
  fullText(query: FullTextQuery, filter: SearchFilter, limit: number, options?: FullTextOptions): Promise<ScoredKey[]>;
  /** For each key, the keys of the messages right before and after it in its conversation that pass the filter. */
  neighbours(keys: readonly number[], filter: SearchFilter): Promise<Map<number, number[]>>;
  /** Messages for keys, in the order given; unknown keys are skipped. */
  hydrate(keys: readonly number[]): Promise<MessageHit[]>;
}
