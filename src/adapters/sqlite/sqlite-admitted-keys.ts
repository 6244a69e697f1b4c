import type { SearchFilter } from '../../domain/search.js';
import { searchFilterWhere, splitSearchFilterWhere } from '../sql/filter-sql.js';
import { inKeys, keysParam, type StatementCache } from './sqlite-statements.js';

/**
 * The keys among `keys` whose message passes the filter, read from keys alone (never a message's content or
 * vector). Key by key, CROSS JOIN keeps SQLite walking from the keys: left to itself, under a status filter
 * it walks every active conversation's messages and probes the list (99 ms against 11 ms for 2,400 keys in a
 * 167,000-message store). A `selective` filter (one known to admit a small share of the messages) reads
 * best as "the message's conversation is in this set", which SQLite builds once from the conversations'
 * indexes: 8.6 against 16.3 ms for 4,000 keys with a 1% folder filter at 1,070,000 messages
 * (bench/NOTES.md, "Settled by probes since deleted").
 */
export function admittedKeys(
  statements: StatementCache, keys: readonly number[], filter: SearchFilter, selective = false,
): number[] {
  if (keys.length === 0) return [];
  const split = splitSearchFilterWhere(filter);
  if (selective && split.conversations) {
    return statements.get(`SELECT m.seq FROM messages m WHERE ${inKeys('m.seq')}
      AND m.conversation_id IN (SELECT c.id FROM conversations c WHERE ${split.conversations.sql}) AND ${split.messages.sql}`)
      .pluck().all(keysParam(keys), ...split.conversations.params, ...split.messages.params) as number[];
  }
  const where = searchFilterWhere(filter);
  return statements.get(`SELECT m.seq FROM messages m CROSS JOIN conversations c ON c.id = m.conversation_id
    WHERE ${inKeys('m.seq')} AND ${where.sql}`).pluck().all(keysParam(keys), ...where.params) as number[];
}
