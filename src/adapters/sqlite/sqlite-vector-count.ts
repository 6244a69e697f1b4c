import type { SearchFilter } from '../../domain/search.js';
import { searchFilterWhere } from '../sql/filter-sql.js';
import type { StatementCache } from './sqlite-statements.js';

/**
 * Stored vectors of messages passing the filter, counted up to `limit`: the count a filtered vector search
 * sizes its candidate pool by.
 *
 * It never visits message_vectors, whose rows of one 3 KB vector each fill a page apiece, so counting through
 * them reads a page per vector. A message has a stored vector exactly when its embedding_status is 'done'
 * (SqliteEmbeddingQueue.complete writes both in one transaction, resetAll clears both, deletes cascade), so this
 * counts the matching messages on covering indexes and takes off those not embedded yet, found through the
 * pending index: min(limit, all - notDone), with `all` counted up to limit + notDone, is the capped count of the
 * embedded ones. While a long queue waits (a bulk load being embedded), counting 'done' rows directly is cheaper.
 */
export function countEmbeddedMatching(statements: StatementCache, filter: SearchFilter, limit: number): number {
  const where = searchFilterWhere(filter);
  const notDone = statements.get(`SELECT count(*) FROM (
    SELECT 1 FROM messages m CROSS JOIN conversations c ON c.id = m.conversation_id
    WHERE m.embedding_status != 'done' AND ${where.sql} LIMIT ?)`).pluck().get(...where.params, limit) as number;
  if (notDone >= limit) {
    return statements.get(`SELECT count(*) FROM (
      SELECT 1 FROM messages m JOIN conversations c ON c.id = m.conversation_id
      WHERE m.embedding_status = 'done' AND ${where.sql} LIMIT ?)`).pluck().get(...where.params, limit) as number;
  }
  const all = statements.get(`SELECT count(*) FROM (
    SELECT 1 FROM messages m JOIN conversations c ON c.id = m.conversation_id
    WHERE ${where.sql} LIMIT ?)`).pluck().get(...where.params, limit + notDone) as number;
  return Math.min(limit, all - notDone);
}
