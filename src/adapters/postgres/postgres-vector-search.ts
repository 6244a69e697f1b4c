import { byScoreThenKey, type ScoredKey, type SearchFilter } from '../../domain/search.js';
import type { VectorSearch } from '../../ports/vector-search.js';
import { folderSubtreeRange, hasFilter, searchFilterWhere, splitSearchFilterWhere } from '../sql/filter-sql.js';
import { AdmittedMessages } from './postgres-admitted-messages.js';
import { inTransaction, numbered, toVectorBytes, type Pool } from './postgres-pool.js';
import { indexedDistance, type PostgresVectorIndex } from './postgres-vector-index.js';

/**
 * Up to this many admitted messages an exact scan of their vectors is cheap and exact; above, the graph is walked
 * iteratively. At 100,000 messages on real text, a folder of 10% (10,000 vectors) took about 20 ms exactly where the
 * filtered graph walk took about 80 (bench/NOTES.md).
 */
export const EXACT_SEARCH_MAX_CANDIDATES = 20_000;
/** A filter an index could not serve in full is scanned exactly while it admits at most this many times exactMaxCandidates. */
export const FEW_FACTOR = 4;
/** Small plans only: parallel workers cost more to start than these statements take. */
export const NO_PARALLEL = 'SET LOCAL max_parallel_workers_per_gather = 0';

/**
 * Vector search in the database with pgvector. Without a filter (or none that leaves anything out now:
 * AdmittedMessages.withoutNoOps): the index (see postgres-vector-index.ts). With one, no join comes before the
 * nearest-neighbour step: a filter that admits few messages (counted from the conversations it admits) is answered
 * by an exact scan of just their vectors; a broader one walks the index, admitting each vector by its conversation
 * (stored with it) as it goes, iteratively until k pass.
 */
export class PostgresVectorSearch implements VectorSearch {
  constructor(private readonly pool: Pool, private readonly index: PostgresVectorIndex,
    private readonly exactMaxCandidates = EXACT_SEARCH_MAX_CANDIDATES, private readonly admitted = new AdmittedMessages(pool)) {}

  async nearest(vector: Float32Array, requested: SearchFilter, k: number): Promise<ScoredKey[]> {
    if (k <= 0) return [];
    const filter = await this.admitted.withoutNoOps(requested);
    const query = toVectorBytes(vector);
    const distance = indexedDistance(this.index.options.kind, vector.length, '?');
    if (!hasFilter(filter)) {
      return this.indexSearch(`SELECT v.message_seq AS key, 1 - ${distance} AS score FROM message_vectors v
        ORDER BY ${distance} LIMIT ?`, [query, query, k], k, false);
    }
    const { where, params: whereParams } = admittedVectorsWhere(filter);
    if (await this.admitted.atMost(filter, this.exactMaxCandidates)) return exactNearest(this.pool, query, where, whereParams, k);
    // The planner, seeing a filter, may prefer to sort every admitted vector: too many here, so the index must serve.
    const found = await this.indexSearch(`SELECT v.message_seq AS key, 1 - ${distance} AS score FROM message_vectors v
      WHERE ${where} ORDER BY ${distance} LIMIT ?`, [query, ...whereParams, query, k], k, true, 'SET LOCAL enable_sort = off');
    if (found.length >= k) return found;
    // The walk gave up short: the filter's few matches lie far from the question (a date range, which counting
    // conversations cannot size).
    return (await exactAmongFew(this.pool, query, filter, k, this.exactMaxCandidates * FEW_FACTOR)) ?? found;
  }

  /** The index's settings for k rows; iterative scans keep going until k rows pass the filter. */
  private async indexSearch(sql: string, params: unknown[], k: number, filtered: boolean, planning = ''): Promise<ScoredKey[]> {
    // Read before the transaction: it must not wait on another connection while it holds one.
    const settings = [await this.index.searchSettings(k, filtered), NO_PARALLEL, planning].filter((text) => text !== '').join('; ');
    return inTransaction(this.pool, async (client) => {
      await client.query(settings);
      const { rows } = await client.query<ScoredKey>(numbered(sql), params);
      // relaxed_order may return slightly out of order: restore it.
      return rows.sort(byScoreThenKey);
    });
  }
}

/** The filter as a condition on message_vectors `v`: its conversation (stored with it) and its message. */
export function admittedVectorsWhere(filter: SearchFilter): { where: string; params: unknown[] } {
  const { conversations, messages } = splitSearchFilterWhere(filter, folderSubtreeRange);
  const admittedConversations = conversations ? `v.conversation_id IN (SELECT c.id FROM conversations c WHERE ${conversations.sql})` : 'TRUE';
  const byMessage = messages.sql === 'TRUE' ? 'TRUE' : `EXISTS (SELECT 1 FROM messages m WHERE m.seq = v.message_seq AND ${messages.sql})`;
  return { where: `${admittedConversations} AND ${byMessage}`, params: [...(conversations?.params ?? []), ...messages.params] };
}

/** The k nearest of the vectors `where` admits, by an exact scan of them (for a filter that admits few). */
export function exactNearest(pool: Pool, query: Buffer, where: string, whereParams: unknown[], k: number): Promise<ScoredKey[]> {
  // Full precision, and "+ 0" makes the order an expression no index serves: an exact scan of the admitted few.
  const exact = `(v.embedding <=> ?::vector)`;
  return inTransaction(pool, async (client) => {
    await client.query(NO_PARALLEL);
    const { rows } = await client.query<ScoredKey>(numbered(`SELECT v.message_seq AS key, 1 - ${exact} AS score
      FROM message_vectors v WHERE ${where} ORDER BY ${exact} + 0, v.message_seq LIMIT ?`), [query, ...whereParams, query, k]);
    return rows;
  });
}

/**
 * The k nearest of the messages the filter admits, by an exact scan driven from the messages (their conversation
 * and dates), after counting them up to `cap`: null when there are more.
 */
export async function exactAmongFew(pool: Pool, query: Buffer, filter: SearchFilter, k: number, cap: number): Promise<ScoredKey[] | null> {
  const where = searchFilterWhere(filter, folderSubtreeRange);
  const messages = 'messages m JOIN conversations c ON c.id = m.conversation_id';
  const { rows: counted } = await pool.query<{ n: number }>(numbered(`SELECT count(*) AS n
    FROM (SELECT 1 FROM ${messages} WHERE ${where.sql} LIMIT ?) s`), [...where.params, cap + 1]);
  if (counted[0]!.n > cap) return null;
  const { rows } = await pool.query<ScoredKey>(numbered(`SELECT v.message_seq AS key, 1 - (v.embedding <=> ?::vector) AS score
    FROM ${messages} JOIN message_vectors v ON v.message_seq = m.seq WHERE ${where.sql}
    ORDER BY score DESC, v.message_seq LIMIT ?`), [query, ...where.params, k]);
  return rows;
}
