import { ENGLISH_STOPWORDS } from '../../domain/stopwords.js';

/**
 * Tokenizer for the FTS5 table that indexes messages. Porter stemming
 * measurably beats plain unicode61 on conversational recall (see
 * scripts/locomo-retrieval-study.ts); diacritics are folded on both sides.
 */
export const FTS_TOKENIZER = 'porter unicode61 remove_diacritics 2';

/**
 * bm25() weight of the `context` column (the neighbouring messages' text)
 * relative to the message's own `content` column (weight 1). Lets a reply
 * ("It taught me self-acceptance") match the words of the message it answers.
 */
export const FTS_CONTEXT_WEIGHT = 0.5;

/** DDL for the recommended table: the message's own text, then its neighbours' text; rowid = message key. */
export function ftsTableDdl(table: string): string {
  if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(table)) throw new Error(`invalid table name: ${table}`);
  return `CREATE VIRTUAL TABLE IF NOT EXISTS ${table} USING fts5(content, context, tokenize = '${FTS_TOKENIZER}')`;
}

/** ORDER BY expression ranking best first (bm25() is lower-is-better; negate it for a score). */
export function bm25Expression(table: string): string {
  return `bm25(${table}, 1.0, ${FTS_CONTEXT_WEIGHT})`;
}

/** Value of the `context` column: the text of the previous and next message of the same conversation. */
export function toContextColumn(previousContent: string | undefined, nextContent: string | undefined): string {
  return [previousContent, nextContent].filter((text) => text !== undefined && text !== '').join('\n');
}

/**
 * Words that match almost every message and so only add noise to an OR query
 * (question words like "what" and "when" included: queries are mostly questions).
 */
const QUERY_STOPWORDS = ENGLISH_STOPWORDS;
const WORD = /[\p{L}\p{N}]+/gu;

/** Distinct non-stopword terms of a query, lower-cased, in first-seen order. */
export function queryTerms(naturalLanguage: string, maxTerms = 32): string[] {
  const terms = new Set<string>();
  for (const word of naturalLanguage.toLowerCase().match(WORD) ?? []) {
    if (QUERY_STOPWORDS.has(word)) continue;
    terms.add(word);
    if (terms.size >= maxTerms) break;
  }
  return [...terms];
}

/**
 * Turns a natural-language question into an FTS5 query matching messages that
 * contain ANY of its content words (bm25() then ranks by how many and how rare).
 * Every term is a quoted string of letters/digits only, so no user input can
 * reach FTS5 syntax (operators, column filters, NEAR, prefix stars).
 * Returns null when nothing searchable is left; callers should then skip FTS.
 */
export function toMatchAnyQuery(naturalLanguage: string, maxTerms = 32): string | null {
  const terms = queryTerms(naturalLanguage, maxTerms);
  return terms.length === 0 ? null : terms.map((term) => `"${term}"`).join(' OR ');
}
