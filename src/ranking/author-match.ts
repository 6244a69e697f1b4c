import type { ScoredKey } from '../domain/search.js';

/**
 * Share of the score a message gains when its author is named in the query.
 * "What did Melanie paint?" is answered by what Melanie said, not by what
 * others said to her; both share the name as a word, so full text alone
 * cannot tell them apart.
 */
export const AUTHOR_WEIGHT = 0.5;

/**
 * The author of a transcript-style message ("Melanie: I painted a sunrise"):
 * one to three capitalised words before a colon at the very start; null when
 * the text does not start that way.
 */
const AUTHOR_PREFIX = /^\s*(\p{Lu}[\p{L}\p{M}'’.-]*(?:[ \t]\p{Lu}[\p{L}\p{M}'’.-]*){0,2})[ \t]*:(?!\/)/u;

export function authorOf(text: string): string | null {
  return AUTHOR_PREFIX.exec(text)?.[1] ?? null;
}

/**
 * Who wrote a message: its `name` when the client gave one, else a leading "Name:" in its content (transcripts stored
 * as "speaker: text", or before messages had names).
 */
export const messageAuthor = (message: { name: string | null; content: string }): string | null =>
  message.name ?? authorOf(message.content);

const WORD = /[\p{L}\p{N}]+/gu;
export const queryWords = (text: string): Set<string> => new Set(words(text));
const words = (text: string) => text.normalize('NFKD').replace(/\p{M}+/gu, '').toLowerCase().match(WORD) ?? [];

/** Whether every word of `author`'s name appears among the query's words ("Caroline's" names Caroline). */
export function namesAuthor(queryWords: ReadonlySet<string>, author: string): boolean {
  const name = words(author);
  return name.length > 0 && name.every((word) => queryWords.has(word));
}

/**
 * score * (1 + weight) for messages whose author the query names, then
 * rescaled to 0..1 and sorted best first; ties keep the input order. Does
 * nothing when the query names no author of any ranked message.
 */
export function favourNamedAuthors(
  query: string,
  ranking: readonly ScoredKey[],
  authorOfKey: (key: number) => string | null | undefined,
  weight: number = AUTHOR_WEIGHT,
): ScoredKey[] {
  if (weight <= 0) return [...ranking];
  const asked = queryWords(query);
  const named = new Map<string, boolean>();
  const rescored = ranking.map((item, order) => {
    const author = authorOfKey(item.key);
    let match = false;
    if (author) {
      match = named.get(author) ?? namesAuthor(asked, author);
      named.set(author, match);
    }
    return { key: item.key, score: item.score * (match ? 1 + weight : 1), order };
  });
  const max = rescored.reduce((value, item) => Math.max(value, item.score), 0);
  return rescored
    .sort((a, b) => b.score - a.score || a.order - b.order)
    .map((item) => ({ key: item.key, score: max > 0 ? item.score / max : 0 }));
}
