import type { ScoredKey } from '../../domain/search.js';

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
  /** The term's own bm25() scores (positive, higher is better) for the candidates it matches. */
  scores: readonly ScoredKey[];
}

/** Sum over terms of ratio x the term's score, best first (ties by key), at most `limit`. */
export function rescoreForScope(terms: readonly TermEvidence[], limit: number): ScoredKey[] {
  const total = new Map<number, number>();
  for (const term of terms) {
    for (const item of term.scores) total.set(item.key, (total.get(item.key) ?? 0) + term.ratio * item.score);
  }
  return [...total].map(([key, score]) => ({ key, score }))
    .sort((a, b) => b.score - a.score || a.key - b.key)
    .slice(0, limit);
}
