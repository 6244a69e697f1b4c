import { byScoreThenKey, type ScoredKey } from '../../domain/search.js';

/**
 * BM25 with term statistics from the searched scope. FTS5's bm25() takes a
 * term's rarity from the whole table; a search filtered to one folder (one
 * person's chats in a shared store, one project) then rewards words that are
 * rare in the store but common in that folder, such as the names of the
 * people who speak in every one of its messages. A single-term bm25() score
 * is idf(term) x the term's frequency part, so each term's score can be
 * re-weighted by idf in the scope / idf in the store and the terms summed again.
 */

/** FTS5's idf: ln((N - n + 0.5) / (n + 0.5)), floored at 1e-6 as FTS5 does for very common terms. */
export function bm25Idf(rows: number, matching: number): number {
  return Math.max(1e-6, Math.log((rows - matching + 0.5) / (matching + 0.5)));
}

export interface TermEvidence {
  /** idf in the scope / idf in the whole table. */
  ratio: number;
  /** The term's own bm25() scores (positive, higher is better); keys that are not candidates are ignored. */
  scores: readonly ScoredKey[];
}

/** Terms whose idf ratio is within this of 1 keep their store-wide weight (their scores need not be read). */
export const RATIO_TOLERANCE = 0.01;

/**
 * The candidates' scores (store-wide bm25 of the whole OR query, which is the
 * sum of its terms' own scores) with each term's share re-weighted:
 * score + sum over terms of (ratio - 1) x the term's score. Best first (ties by key), at most `limit`.
 */
export function rescoreForScope(candidates: readonly ScoredKey[], terms: readonly TermEvidence[], limit: number): ScoredKey[] {
  const total = new Map(candidates.map((item) => [item.key, item.score]));
  for (const term of terms) {
    for (const item of term.scores) {
      const score = total.get(item.key);
      if (score !== undefined) total.set(item.key, score + (term.ratio - 1) * item.score);
    }
  }
  return [...total].map(([key, score]) => ({ key, score }))
    .sort(byScoreThenKey)
    .slice(0, limit);
}
