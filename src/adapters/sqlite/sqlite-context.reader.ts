import type { Database } from 'better-sqlite3';
import type { SearchFilter } from '../../domain/search.js';
import type { ContextReader } from '../../ports/context-reader.js';
import { searchFilterWhere } from '../sql/filter-sql.js';
import { StatementCache } from './sqlite-statements.js';

export class SqliteContextReader implements ContextReader {
  private readonly statements: StatementCache;

  constructor(db: Database) {
    this.statements = new StatementCache(db);
  }

  async pinnedMessageKeys(filter: SearchFilter, minImportance: number, limit: number): Promise<number[]> {
    const where = searchFilterWhere(filter);
    return this.statements.get(`
      SELECT m.seq FROM conversations c JOIN messages m ON m.conversation_id = c.id
      WHERE c.importance_score >= ? AND ${where.sql}
      ORDER BY m.timestamp DESC, m.seq
      LIMIT ?`).pluck().all(minImportance, ...where.params, limit) as number[];
  }

  async recentMessageKeys(filter: SearchFilter, since: string, limit: number): Promise<number[]> {
    const where = searchFilterWhere(filter);
    // CROSS JOIN keeps messages the outer loop: SQLite then walks the timestamp index newest first and stops at
    // the limit, instead of reading every message of every matching conversation and sorting them (SQLite's
    // planner picks that plan for a filter on conversations, e.g. archived: false, and it grows with the store).
    return this.statements.get(`
      SELECT m.seq FROM messages m CROSS JOIN conversations c ON c.id = m.conversation_id
      WHERE m.timestamp >= ? AND ${where.sql}
      ORDER BY m.timestamp DESC, m.seq
      LIMIT ?`).pluck().all(since, ...where.params, limit) as number[];
  }
}
