import { byScoreThenKey, type ScoredKey, type SearchFilter } from '../../domain/search.js';
import type { VectorIndex } from '../../ports/vector-index.js';
import type { VectorSearch } from '../../ports/vector-search.js';
import { indexCandidates, MAX_INDEX_CANDIDATES, readsWholeGraph, unfilteredCandidates } from '../../vector-index/graph-candidates.js';
import { hasFilter } from '../sql/filter-sql.js';
import type { AdmittedMessages } from './postgres-admitted-messages.js';
import { numbered, toVectorBytes, type Pool } from './postgres-pool.js';
import { admittedVectorsWhere, exactAmongFew, exactNearest, FEW_FACTOR } from './postgres-vector-search.js';

/** How much wider the one retry of a filter that correlates with the query looks (at least MAX_INDEX_CANDIDATES). */
const CORRELATED_WIDENING = 8;

/**
 * Vector search on PostgreSQL for a replica that keeps its own graph of the vectors (storage.vector_index: local;
 * postgres-vector-follower.ts keeps it in line with other replicas). The graph gives candidates, as many as the
 * filter's share of the store needs for k to pass it; one statement keeps those the filter admits and ranks them
 * exactly by their stored vectors, so scores are exact and a vector deleted meanwhile is never answered. A filter
 * whose conversations hold few messages is answered by an exact scan of their vectors, as with pgvector.
 */
export class PostgresGraphVectorSearch implements VectorSearch {
  constructor(private readonly pool: Pool, private readonly localIndex: () => VectorIndex | null,
    private readonly admitted: AdmittedMessages, private readonly exactMaxCandidates: number) {}

  async nearest(vector: Float32Array, requested: SearchFilter, k: number): Promise<ScoredKey[]> {
    const index = this.localIndex();
    if (k <= 0 || index === null) return [];
    const filter = await this.admitted.withoutNoOps(requested);
    const query = toVectorBytes(vector);
    const size = index.size();
    const candidates = async (count: number) => (await index.search(vector, count)).map((item) => item.key);
    if (!hasFilter(filter)) {
      const asked = unfilteredCandidates(k, size);
      const exact = readsWholeGraph(asked, size) ? await exactAmongFew(this.pool, query, {}, k, this.exactMaxCandidates) : null;
      return exact ?? this.rerank(query, await candidates(asked), 'TRUE', [], k);
    }
    const { where, params } = admittedVectorsWhere(filter);
    // The same bounded count (and cached answer) as the full text's choice of plan under this filter.
    const held = await this.admitted.messagesUpTo(filter, this.exactMaxCandidates);
    if (held !== null && held <= this.exactMaxCandidates) return exactNearest(this.pool, query, where, params, k);
    // Past the bound the count is a floor: the share it gives asks for at least as many candidates as needed.
    const matching = Math.min(size, held ?? size);
    const asked = indexCandidates(k, size, matching);
    const found = await this.rerank(query, await candidates(asked), where, params, k);
    // Fewer than half the survivors the filter's share predicts: its matches lie away from the question (a folder
    // about another topic). Once more, wider.
    const expected = (asked * matching) / Math.max(1, size);
    if (asked >= size || found.length >= Math.min(k, expected / 2)) return found;
    const wider = Math.min(size, Math.max(asked * CORRELATED_WIDENING, MAX_INDEX_CANDIDATES));
    const widened = await this.rerank(query, await candidates(wider), where, params, k);
    if (widened.length >= k || wider >= size) return widened;
    // Still short, and the graph was not read whole: the filter's few matches lie far from the question (a date range
    // that counting conversations cannot size). Ranked exactly, from the messages it admits, when they are few.
    return (await exactAmongFew(this.pool, query, filter, k, this.exactMaxCandidates * FEW_FACTOR)) ?? widened;
  }

  /** The k best of `keys` that the filter admits and that are still stored, by their stored vectors. */
  private async rerank(query: Buffer, keys: number[], where: string, whereParams: unknown[], k: number): Promise<ScoredKey[]> {
    if (keys.length === 0) return [];
    // The question's vector is sent once: the order is by the score it gives.
    const { rows } = await this.pool.query<ScoredKey>(numbered(`SELECT v.message_seq AS key, 1 - (v.embedding <=> ?::vector) AS score
      FROM message_vectors v WHERE v.message_seq = ANY(?::bigint[]) AND ${where}
      ORDER BY score DESC, v.message_seq LIMIT ?`), [query, keys, ...whereParams, k]);
    return rows.sort(byScoreThenKey);
  }
}
