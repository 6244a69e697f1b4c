import type { FullTextQuery } from '../../domain/full-text-query.js';

/**
 * Renders a parsed full-text query as text for `to_tsquery('english', …)`,
 * which stems each lexeme as `to_tsvector('english', …)` did when indexing.
 * `weights` restricts every lexeme to those tsvector weights ('A' is a
 * message's own words, 'B' its neighbours'); '' matches both. Tokens hold only
 * letters, digits and marks, so quoting them is safe.
 */
export function toTsquery(query: FullTextQuery, weights = ''): string {
  const lexeme = (token: string, prefix: boolean) => {
    const label = `${prefix ? '*' : ''}${weights}`;
    return `'${token}'${label ? `:${label}` : ''}`;
  };
  switch (query.kind) {
    case 'term':
      return lexeme(query.token, query.prefix);
    case 'phrase':
      return `(${query.tokens.map((token) => lexeme(token, false)).join(' <-> ')})`;
    case 'and':
      return `(${query.items.map((item) => toTsquery(item, weights)).join(' & ')})`;
    case 'or':
      return `(${query.items.map((item) => toTsquery(item, weights)).join(' | ')})`;
    case 'not':
      return `(${toTsquery(query.include, weights)} & !${toTsquery(query.exclude, weights)})`;
  }
}
