import type { Database } from 'better-sqlite3';
import type { SearchFilter } from '../../domain/search.js';
import { folderSubtree, searchFilterWhere, type SqlFragment } from '../sql/filter-sql.js';
import { StatementCache } from './sqlite-statements.js';
import { UntilWriteMemo } from './until-write-memo.js';

/**
 * Not-embedded messages walked at most: beyond, a queue is long (a bulk load being embedded) and the direct
 * count is cheaper, above all for a selective filter, which SQLite then reads from the conversations side.
 */
const MAX_NOT_DONE_WALK = 4096;

/**
 * countEmbeddedMatching, remembered until the database changes (UntilWriteMemo): a count over a broad filter
 * (context assembly's archived: false) still reads up to `limit` index entries, and the same filter comes again
 * and again.
 */
export class EmbeddedMatchCounter {
  private readonly statements: StatementCache;
  private readonly remembered: UntilWriteMemo<number>;

  constructor(db: Database) {
    this.statements = new StatementCache(db);
    this.remembered = new UntilWriteMemo(db);
  }

  count(filter: SearchFilter, limit: number): number {
    const where = searchFilterWhere(filter);
    return this.remembered.get(JSON.stringify([where.sql, where.params, limit]),
      () => countEmbeddedMatching(this.statements, filter, limit));
  }

  /**
   * How many of `total` stored vectors the filter admits, counted up to `cap`. When the count reaches the cap,
   * a filter made only of exclusions says how much more it admits by counting what it leaves out: context
   * assembly's `archived: false` admits nearly everything, which a capped count cannot tell.
   */
  admitted(filter: SearchFilter, cap: number, total: number): number {
    const counted = this.count(filter, cap);
    if (counted < cap) return counted;
    const excluded = this.excluded(filter, total - counted + 1);
    return excluded === null ? counted : Math.max(counted, total - excluded);
  }

  /** countExcluded, remembered until the database changes. */
  excluded(filter: SearchFilter, limit: number): number | null {
    const parts = exclusionParts(filter);
    if (parts === null) return null;
    return this.remembered.get(JSON.stringify(['excluded', parts, limit]), () => countExcluded(this.statements, parts, limit));
  }
}

/**
 * What a filter made only of exclusions leaves out, as indexed conditions: `archived: false` leaves out the
 * archived conversations, each excluded folder its subtree. Null for any other filter: what it leaves out is
 * no cheaper to count than what it admits.
 */
function exclusionParts(filter: SearchFilter): SqlFragment[] | null {
  const parts: SqlFragment[] = [];
  for (const [name, value] of Object.entries(filter)) {
    if (value === undefined) continue;
    if (name === 'archived' && value === false) parts.push({ sql: 'c.status = ?', params: ['archived'] });
    else if (name === 'excludedFolders') parts.push(...(value as string[]).map((folder) => folderSubtree('c.folder', folder)));
    else return null;
  }
  return parts;
}

/**
 * Messages (embedded or not) that the exclusions leave out, each counted up to `limit` and summed: at least
 * the number left out, so the index size minus it is at most what the filter admits. A broad filter such as
 * context assembly's `archived: false` admits more than a count capped for speed can say; this says how much
 * more, cheaply, when little is excluded.
 */
function countExcluded(statements: StatementCache, parts: readonly SqlFragment[], limit: number): number {
  let excluded = 0;
  for (const part of parts) {
    excluded += statements.get(`SELECT count(*) FROM (
      SELECT 1 FROM conversations c JOIN messages m ON m.conversation_id = c.id WHERE ${part.sql} LIMIT ?)`)
      .pluck().get(...part.params, limit) as number;
  }
  return excluded;
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
