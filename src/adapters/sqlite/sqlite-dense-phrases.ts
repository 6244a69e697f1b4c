import type { FullTextQuery } from '../../domain/full-text-query.js';
import type { StatementCache } from './sqlite-statements.js';

/**
 * Phrases too common to rank by. FTS5's bm25() floors the idf of a phrase found in more than half the
 * rows at 1e-6, so such a phrase adds nothing to any score; yet to learn its idf, bm25() counts the
 * phrase's matches over the whole table on every query that names it (70 ms for "the" in a
 * 1,000,000-message store, whatever the LIMIT or rowid bound). A dense phrase is left out of scoring.
 */

/** Share of the newest messages above which a phrase is dense (FTS5's own floor: n > N / 2). */
export const DENSE_SHARE = 0.5;

/** The score of a match holding only dense phrases: FTS5's idf floor, which is all bm25() would give it. */
export const DENSE_SCORE = 1e-6;

/** A phrase's share is first judged on its newest matches this many (a short walk of its doclist). */
const DENSITY_PROBE = 1_000;

export type Phrase = Extract<FullTextQuery, { kind: 'term' | 'phrase' }>;

/** Every term and phrase of a query, excluded ones too: bm25() counts each of them. */
export function allPhrases(query: FullTextQuery): Phrase[] {
  switch (query.kind) {
    case 'term':
    case 'phrase':
      return [query];
    case 'and':
    case 'or':
      return query.items.flatMap(allPhrases);
    case 'not':
      return [...allPhrases(query.include), ...allPhrases(query.exclude)];
  }
}

/** True when every match of any of the query's phrases matches the query: a phrase or an OR of them. */
export function isAnyOfPhrases(query: FullTextQuery): boolean {
  return query.kind === 'term' || query.kind === 'phrase' || (query.kind === 'or' && query.items.every(isAnyOfPhrases));
}

/**
 * The query's dense phrases. Only a phrase with at least `maxScored` matches can be dense: below that its
 * count is cheap, and a small store keeps FTS5's exact ranking. Its share is read from its newest matches
 * (how far back the newest `maxScored` of them reach), so judging costs a bounded walk, never a count.
 *
 * @param render the phrase as the MATCH expression the query uses (with or without its column filter)
 * @param denseShare the share of the newest messages above which a phrase is dense (FTS5's floor by default)
 */
export function densePhrases(statements: StatementCache, phrases: readonly Phrase[], render: (phrase: Phrase) => string,
  maxScored: number, denseShare = DENSE_SHARE): Set<Phrase> {
  const dense = new Set<Phrase>();
  if (phrases.length === 0) return dense;
  const newest = statements.get('SELECT max(seq) FROM messages').pluck().get() as number | null;
  if (newest === null || newest < maxScored) return dense;
  const nth = statements.get(`SELECT rowid FROM messages_fts WHERE messages_fts MATCH ?
    ORDER BY rowid DESC LIMIT 1 OFFSET ?`).pluck();
  for (const phrase of phrases) {
    const match = render(phrase);
    const share = (count: number) => {
      const key = nth.get(match, count - 1) as number | undefined;
      return key === undefined ? 0 : count / (newest - key + 1);
    };
    if (share(Math.min(DENSITY_PROBE, maxScored)) > denseShare && share(maxScored) > denseShare) dense.add(phrase);
  }
  return dense;
}
