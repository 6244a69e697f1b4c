import type { ScoredKey, SearchFilter } from '../../domain/search.js';
import type { VectorSearch } from '../../ports/vector-search.js';
import { hasFilter, splitSearchFilterWhere } from '../sql/filter-sql.js';
import { inTransaction, numbered, toVectorText, type Pool } from './postgres-pool.js';
import { indexedDistance, type PostgresVectorIndex } from './postgres-vector-index.js';

/** Below this many admitted messages an exact scan is cheap and exact; above, the index scans iteratively. */
export const EXACT_SEARCH_MAX_CANDIDATES = 4000;

/**
 * Vector search in the database with pgvector. Without a filter: the index (see postgres-vector-index.ts). With one,
 * no join comes before the nearest-neighbour step: a filter that admits few messages (counted from the
 * conversations it admits) is answered by an exact scan of just their vectors; a broader one walks the index,
 * admitting each vector by its conversation (stored with it) as it goes, iteratively until k pass.
 */
export class PostgresVectorSearch implements VectorSearch {
  constructor(private readonly pool: Pool, private readonly index: PostgresVectorIndex,
    private readonly exactMaxCandidates = EXACT_SEARCH_MAX_CANDIDATES) {}

  async nearest(vector: Float32Array, filter: SearchFilter, k: number): Promise<ScoredKey[]> {
    if (k <= 0) return [];
    const text = toVectorText(vector);
    const distance = indexedDistance(this.index.options.kind, vector.length, '?');
    if (!hasFilter(filter)) {
      return this.indexSearch(`SELECT v.message_seq AS key, 1 - ${distance} AS score FROM message_vectors v
        ORDER BY ${distance} LIMIT ?`, [text, text, k]);
    }
    const { conversations, messages } = splitSearchFilterWhere(filter);
    const admittedConversations = conversations ? `v.conversation_id IN (SELECT c.id FROM conversations c WHERE ${conversations.sql})` : 'TRUE';
    const byMessage = messages.sql === 'TRUE' ? 'TRUE' : `EXISTS (SELECT 1 FROM messages m WHERE m.seq = v.message_seq AND ${messages.sql})`;
    const where = `${admittedConversations} AND ${byMessage}`;
    const whereParams = [...(conversations?.params ?? []), ...messages.params];
    if (await this.admitsAtMost(conversations, this.exactMaxCandidates)) {
      // Full precision, and "+ 0" makes the order an expression no index serves: an exact scan of the admitted few.
      const exact = `(v.embedding <=> ?::vector)`;
      const { rows } = await this.pool.query<ScoredKey>(numbered(`SELECT v.message_seq AS key, 1 - ${exact} AS score
        FROM message_vectors v WHERE ${where} ORDER BY ${exact} + 0, v.message_seq LIMIT ?`), [text, ...whereParams, text, k]);
      return rows;
    }
    return this.indexSearch(`SELECT v.message_seq AS key, 1 - ${distance} AS score FROM message_vectors v
      WHERE ${where} ORDER BY ${distance} LIMIT ?`, [text, ...whereParams, text, k]);
  }

  /** Whether the conversations a filter admits hold at most `limit` messages (summed from their counters, not counted). */
  private async admitsAtMost(conversations: { sql: string; params: unknown[] } | null, limit: number): Promise<boolean> {
    if (!conversations) return false;
    const { rows } = await this.pool.query<{ n: number }>(numbered(`SELECT coalesce(sum(message_count), 0) AS n
      FROM (SELECT c.message_count FROM conversations c WHERE ${conversations.sql} LIMIT ?) s`), [...conversations.params, limit + 1]);
    return rows[0]!.n <= limit;
  }

  /** The index's settings for k rows; iterative scans keep going until k rows pass the filter. */
  private async indexSearch(sql: string, params: unknown[]): Promise<ScoredKey[]> {
    const k = params[params.length - 1] as number;
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
