import { ErrorCode, ValidationError } from './errors.js';
import { ENGLISH_STOPWORDS } from './stopwords.js';

/**
 * A full-text query as the user meant it, independent of any search engine.
 * Each storage driver renders it (an FTS5 MATCH expression, a Postgres
 * tsquery), so both accept exactly the same syntax:
 *
 *   words             a single token, matched after stemming
 *   word*             any token starting with `word`
 *   "exact phrase"    the tokens in order
 *   a AND b, a b      both (adjacent items are ANDed)
 *   a OR b            either
 *   a NOT b           a but not b (`a AND NOT b` means the same)
 *   ( ... )           grouping
 *
 * Precedence: NOT binds tightest, then AND, then OR. Operators are upper case;
 * lower-case "and", "or", "not" are plain words.
 */
export type FullTextQuery =
  | { kind: 'term'; token: string; prefix: boolean }
  | { kind: 'phrase'; tokens: string[] }
  | { kind: 'and'; items: FullTextQuery[] }
  | { kind: 'or'; items: FullTextQuery[] }
  | { kind: 'not'; include: FullTextQuery; exclude: FullTextQuery };

/** Longest query accepted, in characters, and most terms: a query is not a document. */
export const MAX_QUERY_CHARS = 2000;
export const MAX_QUERY_TERMS = 64;

/** Letters, digits and combining marks make tokens; everything else separates them. */
const TOKEN = /[\p{L}\p{N}\p{M}]+/gu;

export const tokenize = (text: string): string[] => (text.toLowerCase().match(TOKEN) ?? []);

type Lexeme =
  | { kind: 'word'; text: string; prefix: boolean; at: number }
  | { kind: 'phrase'; text: string; at: number }
  | { kind: 'op'; op: 'AND' | 'OR' | 'NOT'; at: number }
  | { kind: 'open' | 'close'; at: number };

function invalid(message: string, at: number): ValidationError {
  return new ValidationError(`Invalid full-text query at position ${at + 1}: ${message}. ` +
    'Use words, "exact phrases", prefix*, AND, OR, NOT and parentheses.', ErrorCode.INVALID_QUERY);
}

/** Characters of other engines' syntax (column filters, boosts, +required) that this syntax does not have. */
const FOREIGN_SYNTAX = /[{}:^+]/;

function lex(input: string): Lexeme[] {
  const lexemes: Lexeme[] = [];
  let i = 0;
  while (i < input.length) {
    const char = input[i]!;
    if (/\s/.test(char)) { i += 1; continue; }
    if (char === '(' || char === ')') {
      lexemes.push({ kind: char === '(' ? 'open' : 'close', at: i });
      i += 1;
      continue;
    }
    if (char === '"') {
      const end = input.indexOf('"', i + 1);
      if (end < 0) throw invalid('unterminated "phrase"', i);
      if (input[end + 1] === '*') throw invalid('a phrase cannot be a prefix; put * after a single word', end + 1);
      lexemes.push({ kind: 'phrase', text: input.slice(i + 1, end), at: i });
      i = end + 1;
      continue;
    }
    let end = i;
    while (end < input.length && !/[\s()"]/.test(input[end]!)) end += 1;
    const raw = input.slice(i, end);
    if (raw === 'AND' || raw === 'OR' || raw === 'NOT') {
      lexemes.push({ kind: 'op', op: raw, at: i });
    } else if (raw === 'NEAR' && input[end] === '(') {
      throw invalid('NEAR() is not supported; use a "phrase" or AND', i);
    } else {
      if (raw.startsWith('-') && tokenize(raw).length > 0) throw invalid('to leave words out write "a NOT b"', i);
      const foreign = FOREIGN_SYNTAX.exec(raw);
      if (foreign) throw invalid(`"${foreign[0]}" is not part of the query syntax (no column filters or boosts)`, i + foreign.index);
      const star = raw.indexOf('*');
      if (star >= 0 && star !== raw.length - 1) throw invalid('* may only end a word, as in plan*', i + star);
      const prefix = star === raw.length - 1;
      const text = prefix ? raw.slice(0, -1) : raw;
      if (prefix && tokenize(text).length !== 1) throw invalid('* must follow a word of letters or digits', i + star);
      // Punctuation alone ("-", "?") holds no token: it matches nothing, so it is dropped.
      if (tokenize(text).length > 0) lexemes.push({ kind: 'word', text, prefix, at: i });
    }
    i = end;
  }
  return lexemes;
}

/**
 * Parses the user's full-text syntax. Throws a 400 ValidationError naming the
 * 1-based character position of the first problem.
 */
export function parseFullTextQuery(input: string): FullTextQuery {
  if (input.length > MAX_QUERY_CHARS) throw invalid(`the query is longer than ${MAX_QUERY_CHARS} characters`, MAX_QUERY_CHARS);
  const lexemes = lex(input);
  if (lexemes.length === 0) throw invalid('the query has no words to search for', 0);
  let next = 0;
  let terms = 0;
  const peek = () => lexemes[next];
  const endAt = () => input.length;

  const primary = (): FullTextQuery => {
    const lexeme = peek();
    if (lexeme === undefined) throw invalid('expected a word, a "phrase" or "(" at the end of the query', endAt());
    next += 1;
    if (lexeme.kind === 'open') {
      const inner = orExpression();
      const close = peek();
      if (close?.kind !== 'close') throw invalid('missing ")" for this "("', lexeme.at);
      next += 1;
      return inner;
    }
    if (lexeme.kind === 'word' || lexeme.kind === 'phrase') {
      terms += 1;
      if (terms > MAX_QUERY_TERMS) throw invalid(`more than ${MAX_QUERY_TERMS} terms`, lexeme.at);
      const tokens = tokenize(lexeme.text);
      if (tokens.length === 0) throw invalid('the phrase holds no words', lexeme.at);
      if (tokens.length === 1) return { kind: 'term', token: tokens[0]!, prefix: lexeme.kind === 'word' && lexeme.prefix };
      return { kind: 'phrase', tokens };
    }
    if (lexeme.kind !== 'op') throw invalid('")" without a matching "("', lexeme.at);
    throw invalid(lexeme.op === 'NOT'
      ? 'NOT needs something before it, as in "a NOT b"'
      : `${lexeme.op} needs a word, a "phrase" or "(" on both sides`, lexeme.at);
  };

  const notExpression = (): FullTextQuery => {
    let left = primary();
    while (peek()?.kind === 'op' && (peek() as { op: string }).op === 'NOT') {
      next += 1;
      left = { kind: 'not', include: left, exclude: primary() };
    }
    return left;
  };

  const startsItem = (lexeme: Lexeme | undefined) =>
    lexeme !== undefined && (lexeme.kind === 'word' || lexeme.kind === 'phrase' || lexeme.kind === 'open');

  const andExpression = (): FullTextQuery => {
    const items = [notExpression()];
    for (;;) {
      const lexeme = peek();
      if (lexeme?.kind === 'op' && lexeme.op === 'AND') {
        next += 1;
        // `a AND NOT b` is `a NOT b`.
        const after = peek();
        if (after?.kind === 'op' && after.op === 'NOT') {
          next += 1;
          items.push({ kind: 'not', include: items.pop()!, exclude: primary() });
          continue;
        }
        items.push(notExpression());
      } else if (startsItem(lexeme)) {
        items.push(notExpression());
      } else {
        break;
      }
    }
    return items.length === 1 ? items[0]! : { kind: 'and', items };
  };

  const orExpression = (): FullTextQuery => {
    const items = [andExpression()];
    while (peek()?.kind === 'op' && (peek() as { op: string }).op === 'OR') {
      next += 1;
      items.push(andExpression());
    }
    return items.length === 1 ? items[0]! : { kind: 'or', items };
  };

  const query = orExpression();
  const rest = peek();
  if (rest !== undefined) {
    throw rest.kind === 'close' ? invalid('")" without a matching "("', rest.at) : invalid('unexpected operator', rest.at);
  }
  return query;
}

/** The distinct content words of a natural-language question (stopwords and question words dropped), at most `maxTerms`. */
export function naturalLanguageTerms(text: string, maxTerms = 32): string[] {
  const terms: string[] = [];
  for (const token of new Set(tokenize(text))) {
    if (ENGLISH_STOPWORDS.has(token)) continue;
    terms.push(token);
    if (terms.length >= maxTerms) break;
  }
  return terms;
}

/**
 * The full-text side of a natural-language question: any of its content words,
 * ranked by the driver by how many and how rare. Null when nothing searchable is left.
 */
export function naturalLanguageQuery(text: string, maxTerms = 32): FullTextQuery | null {
  const items = naturalLanguageTerms(text, maxTerms).map((token): FullTextQuery => ({ kind: 'term', token, prefix: false }));
  if (items.length === 0) return null;
  return items.length === 1 ? items[0]! : { kind: 'or', items };
}

/** Every positive term or phrase of a query (what a match can be scored on). */
export function positiveTerms(query: FullTextQuery): Array<Extract<FullTextQuery, { kind: 'term' | 'phrase' }>> {
  switch (query.kind) {
    case 'term':
    case 'phrase':
      return [query];
    case 'and':
    case 'or':
      return query.items.flatMap(positiveTerms);
    case 'not':
      return positiveTerms(query.include);
  }
}

/** The words of a plain OR of whole words (what natural-language search sends); null for any other query. */
export function plainWords(query: FullTextQuery): string[] | null {
  const items = query.kind === 'or' ? query.items : [query];
  const words: string[] = [];
  for (const item of items) {
    if (item.kind !== 'term' || item.prefix) return null;
    words.push(item.token);
  }
  return words;
}
