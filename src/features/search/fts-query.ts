import { naturalLanguageTerms } from '../../domain/full-text-query.js';

/**
 * Tokenizer for the FTS5 table that indexes messages. Porter stemming
 * measurably beats plain unicode61 on conversational recall (LoCoMo dev; see
 * bench/NOTES.md, "Settled by probes since deleted"); diacritics are folded on both sides.
 */
export const FTS_TOKENIZER = 'porter unicode61 remove_diacritics 2';

/**
 * bm25() weight of the `context` column (the neighbouring messages' text)
 * relative to the message's own `content` column (weight 1). Lets a reply
 * ("It taught me self-acceptance") match the words of the message it answers.
 */
export const FTS_CONTEXT_WEIGHT = 0.5;

/**
 * Keyword recall for a question (hybrid search, context assembly) ranks by the question's rarer words: a word
 * in more than a tenth of the newest messages is common (FullTextOptions.commonShare), as a common-terms
 * cutoff does in other engines. BM25 gives it little weight anyway (idf 1.3 at 27% against 6.9 at 0.1%), yet
 * counting its matches and scoring a window of them was most of a hybrid search's time at 1,000,000 messages
 * (in-process p50 27.0 ms, 14.0 ms with this line; bench/NOTES.md). Stores smaller than one query's scoring
 * window (10,000 matches) rank every word as before.
 */
export const QUESTION_COMMON_SHARE = 0.1;

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

/** Distinct non-stopword terms of a query, lower-cased, in first-seen order (the terms keyword search uses). */
export const queryTerms = naturalLanguageTerms;

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
