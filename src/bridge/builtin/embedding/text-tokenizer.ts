import { stemmer } from 'stemmer';
import { ENGLISH_STOPWORDS } from '../../../domain/stopwords.js';

export const STOPWORDS = ENGLISH_STOPWORDS;

const WORD = /[\p{L}\p{N}]+/gu;
const COMBINING_MARKS = /\p{M}+/gu;

/** Lower-cased words with diacritics removed, split at every non-alphanumeric character. */
export function tokenizeWords(text: string): string[] {
  return text.normalize('NFKD').replace(COMBINING_MARKS, '').toLowerCase().match(WORD) ?? [];
}

export function isStopword(word: string): boolean {
  return STOPWORDS.has(word);
}

/** Porter stem, the same algorithm as SQLite FTS5's `porter` tokenizer, so both sides agree on terms. */
export function stemWord(word: string): string {
  return stemmer(word);
}

/** Words that are neither stopwords nor pure punctuation, in text order. */
export function contentWords(text: string): string[] {
  return tokenizeWords(text).filter((word) => !STOPWORDS.has(word));
}
