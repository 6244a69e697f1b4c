import type { Database } from 'better-sqlite3';
import type { SearchFilter } from '../../domain/search.js';
import type { ContextReader } from '../../ports/context-reader.js';
import { searchFilterWhere } from './sqlite-filters.js';

/** Largest number of keys bound into one IN (...) list. */
const KEY_CHUNK = 10_000;

export class SqliteContextReader implements ContextReader {
  constructor(private readonly db: Database) {}

  async pinnedMessageKeys(filter: SearchFilter, minImportance: number, limit: number): Promise<number[]> {
    const where = searchFilterWhere(filter);
    return this.db.prepare(`
      SELECT m.seq FROM conversations c JOIN messages m ON m.conversation_id = c.id
      WHERE c.importance_score >= ? AND ${where.sql}
      ORDER BY m.timestamp DESC, m.seq
      LIMIT ?`).pluck().all(minImportance, ...where.params, limit) as number[];
  }

  async recentMessageKeys(filter: SearchFilter, since: string, limit: number): Promise<number[]> {
    const where = searchFilterWhere(filter);
    return this.db.prepare(`
      SELECT m.seq FROM messages m JOIN conversations c ON c.id = m.conversation_id
      WHERE m.timestamp >= ? AND ${where.sql}
      ORDER BY m.timestamp DESC, m.seq
      LIMIT ?`).pluck().all(since, ...where.params, limit) as number[];
  }

  async adjacentKeys(keys: readonly number[]): Promise<Map<number, number[]>> {
    const adjacent = new Map<number, number[]>();
    for (const key of keys) adjacent.set(key, []);
    for (let start = 0; start < keys.length; start += KEY_CHUNK) {
      const chunk = keys.slice(start, start + KEY_CHUNK);
      const rows = this.db.prepare(`
        SELECT m.seq AS key, n.seq AS neighbour
        FROM messages m JOIN messages n
          ON n.conversation_id = m.conversation_id AND n.position IN (m.position - 1, m.position + 1)
        WHERE m.seq IN (${chunk.map(() => '?').join(',')})
        ORDER BY m.seq, n.position`).all(...chunk) as Array<{ key: number; neighbour: number }>;
      for (const row of rows) adjacent.get(row.key)!.push(row.neighbour);
    }
    return adjacent;
  }
}
