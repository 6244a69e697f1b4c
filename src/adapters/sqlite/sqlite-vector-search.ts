import type { Database } from 'better-sqlite3';
import { exactTopK } from '../../domain/exact-search.js';
import type { ScoredKey, SearchFilter } from '../../domain/search.js';
import type { VectorIndex } from '../../ports/vector-index.js';
import type { VectorSearch } from '../../ports/vector-search.js';
import { blobToVector } from './sqlite-embedding.queue.js';
import { hasFilter, searchFilterWhere } from '../sql/filter-sql.js';
import { inKeys, keysParam, StatementCache } from './sqlite-statements.js';

/** Below this many filtered candidates, exact search beats the approximate index in recall at little cost. */
export const EXACT_SEARCH_MAX_CANDIDATES = 4000;

/**
 * Vector search over the SQLite store: the in-process HNSW index, or an exact
 * scan of the stored vectors when a filter leaves few candidates.
 */
export class SqliteVectorSearch implements VectorSearch {
  private readonly statements: StatementCache;

  constructor(db: Database, private readonly localIndex: () => VectorIndex | null) {
    this.statements = new StatementCache(db);
  }

  async nearest(vector: Float32Array, filter: SearchFilter, depth: number): Promise<ScoredKey[]> {
    const index = this.localIndex();
    if (index === null) return [];
    const filtered = hasFilter(filter);
    if (filtered) {
      const candidates = this.countVectorsMatching(filter, EXACT_SEARCH_MAX_CANDIDATES + 1);
      if (candidates <= EXACT_SEARCH_MAX_CANDIDATES) {
        return exactTopK(vector, this.vectorsMatching(filter, EXACT_SEARCH_MAX_CANDIDATES), depth);
      }
    }
    // Approximate search, then keep what passes the filter (and still exists); widen until enough are left.
    const size = index.size();
    let k = Math.min(size, filtered ? depth * 4 : depth + 16);
    for (;;) {
      const found = index.search(vector, k);
      const allowed = this.keysMatching(found.map((item) => item.key), filter);
      const kept = found.filter((item) => allowed.has(item.key));
      if (kept.length >= depth || k >= size) return kept.slice(0, depth);
      k = Math.min(size, k * 4);
    }
  }

  private vectorsMatching(filter: SearchFilter, limit: number): Array<{ key: number; vector: Float32Array }> {
    const where = searchFilterWhere(filter);
    const rows = this.statements.get(`
      SELECT v.message_seq AS key, v.vector FROM message_vectors v
      JOIN messages m ON m.seq = v.message_seq JOIN conversations c ON c.id = m.conversation_id
      WHERE ${where.sql} LIMIT ?`).all(...where.params, limit) as Array<{ key: number; vector: Buffer }>;
    return rows.map((row) => ({ key: row.key, vector: blobToVector(row.vector) }));
  }

  private countVectorsMatching(filter: SearchFilter, limit: number): number {
    const where = searchFilterWhere(filter);
    return this.statements.get(`SELECT count(*) FROM (
      SELECT 1 FROM message_vectors v
      JOIN messages m ON m.seq = v.message_seq JOIN conversations c ON c.id = m.conversation_id
      WHERE ${where.sql} LIMIT ?)`).pluck().get(...where.params, limit) as number;
  }

  private keysMatching(keys: readonly number[], filter: SearchFilter): Set<number> {
    const where = searchFilterWhere(filter);
    const rows = this.statements.get(`
      SELECT m.seq FROM messages m JOIN conversations c ON c.id = m.conversation_id
      WHERE ${inKeys('m.seq')} AND ${where.sql}`)
      .pluck().all(keysParam(keys), ...where.params) as number[];
    return new Set(rows);
  }
}
