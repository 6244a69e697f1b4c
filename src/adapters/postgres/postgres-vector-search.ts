import type { ScoredKey, SearchFilter } from '../../domain/search.js';
import type { VectorSearch } from '../../ports/vector-search.js';
import { hasFilter, searchFilterWhere } from '../sql/filter-sql.js';
import { MAX_VECTOR_INDEX_DIMENSION } from './postgres-embedding.queue.js';
import { inTransaction, numbered, toVectorText, type Pool } from './postgres-pool.js';

/** Below this many filtered candidates an exact scan is cheap and exact; above, the HNSW index scans iteratively. */
export const EXACT_SEARCH_MAX_CANDIDATES = 4000;

/** The ef_search and scan mode of an index search, set for its transaction only: one round trip. */
const indexSettings = (k: number) =>
  `SET LOCAL hnsw.ef_search = ${Math.min(1000, Math.max(64, Math.trunc(k)))}; SET LOCAL hnsw.iterative_scan = relaxed_order`;

/**
 * Vector search in the database with pgvector: the HNSW index (cosine), with
 * `hnsw.iterative_scan` so a filter still yields k results, or an exact scan
 * where the filter leaves few rows.
 */
export class PostgresVectorSearch implements VectorSearch {
  constructor(private readonly pool: Pool, private readonly exactMaxCandidates = EXACT_SEARCH_MAX_CANDIDATES) {}

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

  /** The candidate list holds at least k; iterative scans keep going until k rows pass the filter. */
  private async indexSearch(sql: string, params: unknown[], k: number): Promise<ScoredKey[]> {
    return inTransaction(this.pool, async (client) => {
      await client.query(indexSettings(k));
      const { rows } = await client.query<ScoredKey>(numbered(sql), params);
      // relaxed_order may return slightly out of order: restore it.
      return rows.sort((a, b) => b.score - a.score || a.key - b.key);
    });
  }
}
