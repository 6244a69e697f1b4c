import type { ScoredKey, SearchFilter } from '../../domain/search.js';
import type { VectorSearch } from '../../ports/vector-search.js';
import { hasFilter, searchFilterWhere } from '../sql/filter-sql.js';
import { inTransaction, numbered, toVectorText, type Pool } from './postgres-pool.js';
import { MAX_VECTOR_INDEX_DIMENSION, type PostgresVectorIndex } from './postgres-vector-index.js';

/** Below this many filtered candidates an exact scan is cheap and exact; above, the index scans iteratively. */
export const EXACT_SEARCH_MAX_CANDIDATES = 4000;

/**
 * Vector search in the database with pgvector: the vector index (cosine; see postgres-vector-index.ts), with an
 * iterative scan so a filter still yields k results, or an exact scan where the filter leaves few rows.
 */
export class PostgresVectorSearch implements VectorSearch {
  constructor(private readonly pool: Pool, private readonly index: PostgresVectorIndex,
    private readonly exactMaxCandidates = EXACT_SEARCH_MAX_CANDIDATES) {}

  async nearest(vector: Float32Array, filter: SearchFilter, k: number): Promise<ScoredKey[]> {
    if (k <= 0) return [];
    // Larger vectors are indexed as halfvec: the query must use the indexed expression to use the index.
    const column = vector.length <= MAX_VECTOR_INDEX_DIMENSION ? 'v.embedding' : `v.embedding::halfvec(${vector.length})`;
    const query = vector.length <= MAX_VECTOR_INDEX_DIMENSION ? '?::vector' : `?::vector::halfvec(${vector.length})`;
    const distance = `${column} <=> ${query}`;
    const text = toVectorText(vector);
    if (!hasFilter(filter)) {
      return this.indexSearch(`SELECT v.message_seq AS key, 1 - (${distance}) AS score FROM message_vectors v
        ORDER BY ${distance} LIMIT ?`, [text, text, k], k);
    }
    const where = searchFilterWhere(filter);
    const joined = `FROM message_vectors v JOIN messages m ON m.seq = v.message_seq JOIN conversations c ON c.id = m.conversation_id
      WHERE ${where.sql}`;
    const { rows } = await this.pool.query<{ n: number }>(numbered(`SELECT count(*) AS n FROM (SELECT 1 ${joined} LIMIT ?) s`),
      [...where.params, this.exactMaxCandidates + 1]);
    if (rows[0]!.n <= this.exactMaxCandidates) {
      // "+ 0" makes the order an expression the index cannot serve: an exact scan of the few candidates, no settings needed.
      const exact = await this.pool.query<ScoredKey>(numbered(`SELECT v.message_seq AS key, 1 - (${distance}) AS score ${joined}
        ORDER BY (${distance}) + 0, v.message_seq LIMIT ?`), [text, ...where.params, text, k]);
      return exact.rows;
    }
    return this.indexSearch(`SELECT v.message_seq AS key, 1 - (${distance}) AS score ${joined}
      ORDER BY ${distance} LIMIT ?`, [text, ...where.params, text, k], k);
  }

  /** The index's settings for k rows; iterative scans keep going until k rows pass the filter. */
  private async indexSearch(sql: string, params: unknown[], k: number): Promise<ScoredKey[]> {
    // Read before the transaction: it must not wait on another connection while it holds one.
    const settings = await this.index.searchSettings(k);
    return inTransaction(this.pool, async (client) => {
      if (settings) await client.query(settings);
      const { rows } = await client.query<ScoredKey>(numbered(sql), params);
      // relaxed_order may return slightly out of order: restore it.
      return rows.sort((a, b) => b.score - a.score || a.key - b.key);
    });
  }
}
