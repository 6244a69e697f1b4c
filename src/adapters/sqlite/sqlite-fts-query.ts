import type { FullTextQuery } from '../../domain/full-text-query.js';

/**
 * Renders a parsed full-text query as an FTS5 MATCH expression. Tokens hold
 * only letters, digits and marks, so every one is safe inside double quotes,
 * and no user input can reach FTS5's own syntax (column filters, NEAR, ^).
 */
export function toFts5Match(query: FullTextQuery): string {
  switch (query.kind) {
    case 'term':
      return `"${query.token}"${query.prefix ? '*' : ''}`;
    case 'phrase':
      return `"${query.tokens.join(' ')}"`;
    case 'and':
      return `(${query.items.map(toFts5Match).join(' AND ')})`;
    case 'or':
      return `(${query.items.map(toFts5Match).join(' OR ')})`;
    case 'not':
      return `(${toFts5Match(query.include)} NOT ${toFts5Match(query.exclude)})`;
  }
}
