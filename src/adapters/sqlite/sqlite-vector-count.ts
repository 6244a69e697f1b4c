import type { Database, Statement } from 'better-sqlite3';
import type { SearchFilter } from '../../domain/search.js';
import { searchFilterWhere } from '../sql/filter-sql.js';
import { StatementCache } from './sqlite-statements.js';

/**
 * Not-embedded messages walked at most: beyond, a queue is long (a bulk load being embedded) and the direct
 * count is cheaper, above all for a selective filter, which SQLite then reads from the conversations side.
 */
const MAX_NOT_DONE_WALK = 4096;

/** Counts kept at most between two writes (one per distinct filter and cap). */
const MAX_REMEMBERED = 256;

/**
 * countEmbeddedMatching, remembered until the database changes: a count over a broad filter (context
 * assembly's archived: false) still reads up to `limit` index entries, and the same filter comes again and
 * again. Any write ends every remembered count: total_changes() counts this connection's inserted, updated
 * and deleted rows, and data_version moves when another connection commits.
 */
export class EmbeddedMatchCounter {
  private readonly statements: StatementCache;
  private readonly version: Statement;
  private readonly remembered = new Map<string, number>();
  private rememberedAt = '';

  constructor(db: Database) {
    this.statements = new StatementCache(db);
    this.version = db.prepare(`SELECT total_changes() || ':' || data_version FROM pragma_data_version`).pluck();
  }

  count(filter: SearchFilter, limit: number): number {
    const version = this.version.get() as string;
    if (version !== this.rememberedAt || this.remembered.size >= MAX_REMEMBERED) {
      this.remembered.clear();
      this.rememberedAt = version;
    }
    const where = searchFilterWhere(filter);
    const key = JSON.stringify([where.sql, where.params, limit]);
    let count = this.remembered.get(key);
    if (count === undefined) {
      count = countEmbeddedMatching(this.statements, filter, limit);
      this.remembered.set(key, count);
    }
    return count;
  }
}

/**
 * Stored vectors of messages passing the filter, counted up to `limit`: the count a filtered vector search
 * sizes its candidate pool by.
 *
 * It never visits message_vectors, whose rows of one 3 KB vector each fill a page apiece, so counting through
 * them reads a page per vector. A message has a stored vector exactly when its embedding_status is 'done'
 * (SqliteEmbeddingQueue.complete writes both in one transaction, resetAll clears both, deletes cascade), so this
 * counts the matching messages on covering indexes and takes off those not embedded yet, found through the
 * pending index: min(limit, all - notDone), with `all` counted up to limit + notDone, is the capped count of the
 * embedded ones. While a long queue waits, counting 'done' rows directly is cheaper.
 */
export function countEmbeddedMatching(statements: StatementCache, filter: SearchFilter, limit: number): number {
  const where = searchFilterWhere(filter);
  const walk = Math.min(limit, MAX_NOT_DONE_WALK);
  const notDone = statements.get(`SELECT count(*) FROM (
    SELECT 1 FROM messages m CROSS JOIN conversations c ON c.id = m.conversation_id
    WHERE m.embedding_status != 'done' AND ${where.sql} LIMIT ?)`).pluck().get(...where.params, walk) as number;
  if (notDone >= walk) {
    return statements.get(`SELECT count(*) FROM (
      SELECT 1 FROM messages m JOIN conversations c ON c.id = m.conversation_id
      WHERE m.embedding_status = 'done' AND ${where.sql} LIMIT ?)`).pluck().get(...where.params, limit) as number;
  }
  const all = statements.get(`SELECT count(*) FROM (
    SELECT 1 FROM messages m JOIN conversations c ON c.id = m.conversation_id
    WHERE ${where.sql} LIMIT ?)`).pluck().get(...where.params, limit + notDone) as number;
  return Math.min(limit, all - notDone);
}
