import type { Database } from 'better-sqlite3';
import { exactTopK } from '../../domain/exact-search.js';
import type { ScoredKey, SearchFilter } from '../../domain/search.js';
import type { VectorIndex } from '../../ports/vector-index.js';
import type { VectorSearch } from '../../ports/vector-search.js';
import { blobToVector } from './sqlite-embedding.queue.js';
import { hasFilter, searchFilterWhere, splitSearchFilterWhere } from '../sql/filter-sql.js';
import { inKeys, keysParam, StatementCache } from './sqlite-statements.js';
import { EmbeddedMatchCounter } from './sqlite-vector-count.js';

/** Below this many filtered candidates, an exact scan of their stored vectors is cheap and exact. */
export const EXACT_SEARCH_MAX_CANDIDATES = 4000;
/** Approximate candidates at most, however selective the filter (the index search and the re-rank read grow with it). */
const MAX_INDEX_CANDIDATES = 4000;
/**
 * Headroom over the expected number of survivors, for graph error and an uneven spread of matches: full for a
 * filter admitting at most half the vectors, falling to none as it admits them all (nothing to spread unevenly).
 */
const OVERSAMPLE = 2;
/** Filters counted to admit at most this share of the vectors check candidates against a set of their conversations. */
const CONVERSATION_SET_MAX_SHARE = 0.1;
/** How much wider the one retry of a filter that correlates with the query looks (at least MAX_INDEX_CANDIDATES). */
const CORRELATED_WIDENING = 8;
/** Matches are counted up to this many times exactMaxCandidates: enough to size the candidate pool, cheap to count. */
const COUNT_CAP_FACTOR = 25;

export interface SqliteVectorSearchOptions {
  /** Filtered searches matching at most this many vectors are answered by an exact scan. */
  exactMaxCandidates?: number;
}

/**
 * Vector search over the SQLite store, in one pass whatever the filter:
 * - few matches (at most exactMaxCandidates): exact cosine over their stored vectors;
 * - otherwise the HNSW index gives candidates, as many as the filter's
 *   selectivity needs for `depth` to survive it, and one query keeps those that
 *   pass the filter with their stored float32 vectors, which re-rank them exactly.
 * The index holds i8 (or f16) vectors: the re-rank makes scores and order exact among the candidates.
 */
export class SqliteVectorSearch implements VectorSearch {
  private readonly statements: StatementCache;
  private readonly exactMaxCandidates: number;
  private readonly counter: EmbeddedMatchCounter;

  constructor(db: Database, private readonly localIndex: () => VectorIndex | null, options: SqliteVectorSearchOptions = {}) {
    this.statements = new StatementCache(db);
    this.counter = new EmbeddedMatchCounter(db);
    this.exactMaxCandidates = options.exactMaxCandidates ?? EXACT_SEARCH_MAX_CANDIDATES;
  }

  async nearest(vector: Float32Array, filter: SearchFilter, depth: number): Promise<ScoredKey[]> {
    const index = this.localIndex();
    if (index === null) return [];
    const size = index.size();
    let matching = size;
    let counted = false;
    if (hasFilter(filter)) {
      const cap = Math.max(this.exactMaxCandidates + 1, Math.min(size, this.exactMaxCandidates * COUNT_CAP_FACTOR));
      matching = Math.max(1, this.counter.admitted(filter, cap, size));
      counted = matching < cap;
      if (matching <= this.exactMaxCandidates) {
        return exactTopK(vector, this.vectorsMatching(filter, this.exactMaxCandidates), depth);
      }
    }
    const selective = counted && matching <= size * CONVERSATION_SET_MAX_SHARE;
    const candidates = indexCandidates(depth, size, matching);
    let admitted = await this.admittedNearest(index, vector, candidates, filter, selective);
    // Fewer than half the survivors the filter's share predicts: the filter correlates with the query (recent
    // messages, asked about old ones). Once, wider: without it those matches would never be reached.
    const expected = (candidates * matching) / Math.max(1, size);
    if (hasFilter(filter) && candidates < size && admitted.length < Math.min(depth, matching, expected / 2)) {
      const wider = Math.min(size, Math.max(candidates * CORRELATED_WIDENING, MAX_INDEX_CANDIDATES));
      admitted = await this.admittedNearest(index, vector, wider, filter, selective);
    }
    return exactTopK(vector, this.vectorsOf(admitted), depth);
  }

  /** The index's `count` nearest that pass the filter (keys only: most fail a selective one). */
  private async admittedNearest(
    index: VectorIndex, vector: Float32Array, count: number, filter: SearchFilter, selective: boolean,
  ): Promise<number[]> {
    const keys = (await index.search(vector, count)).map((item) => item.key);
    return hasFilter(filter) ? this.admitted(keys, filter, selective) : keys;
  }

  /** Stored vectors by key; a vector is deleted with its message (ON DELETE CASCADE), so a key without one is gone. */
  private vectorsOf(keys: readonly number[]): Array<{ key: number; vector: Float32Array }> {
    if (keys.length === 0) return [];
    const rows = this.statements.get(`SELECT message_seq AS key, vector FROM message_vectors WHERE ${inKeys('message_seq')}`)
      .all(keysParam(keys)) as Array<{ key: number; vector: Buffer }>;
    return rows.map((row) => ({ key: row.key, vector: blobToVector(row.vector) }));
  }

  /**
   * The keys whose message passes the filter. Reading keys alone, not the 3 KB vectors of candidates the filter
   * then drops: at 1,070,000 messages with a 10% folder filter, 2,016 candidates took 18-23 ms joined with
   * their vectors and 9.5 ms as keys, 191 admitted vectors 1.1 ms more. A filter admitting a small share of
   * the messages reads best as a set of conversations built once (1% folder, 4,000 candidates: 8.6 ms against
   * 16.3 ms key by key); a broad one (archived: false) key by key (scripts/filtered-split-probe.ts).
   */
  private admitted(keys: readonly number[], filter: SearchFilter, selective: boolean): number[] {
    if (keys.length === 0) return [];
    const split = splitSearchFilterWhere(filter);
    if (split.conversations && selective) {
      return this.statements.get(`SELECT m.seq FROM messages m WHERE ${inKeys('m.seq')}
        AND m.conversation_id IN (SELECT c.id FROM conversations c WHERE ${split.conversations.sql}) AND ${split.messages.sql}`)
        .pluck().all(keysParam(keys), ...split.conversations.params, ...split.messages.params) as number[];
    }
    const where = searchFilterWhere(filter);
    return this.statements.get(`SELECT m.seq FROM messages m CROSS JOIN conversations c ON c.id = m.conversation_id
      WHERE ${inKeys('m.seq')} AND ${where.sql}`).pluck().all(keysParam(keys), ...where.params) as number[];
  }

  private vectorsMatching(filter: SearchFilter, limit: number): Array<{ key: number; vector: Float32Array }> {
    const where = searchFilterWhere(filter);
    const rows = this.statements.get(`
      SELECT v.message_seq AS key, v.vector FROM message_vectors v
      JOIN messages m ON m.seq = v.message_seq JOIN conversations c ON c.id = m.conversation_id
      WHERE ${where.sql} LIMIT ?`).all(...where.params, limit) as Array<{ key: number; vector: Buffer }>;
    return rows.map((row) => ({ key: row.key, vector: blobToVector(row.vector) }));
  }
}

/**
 * How many candidates to ask the index for so that about `depth` pass a filter admitting `matching` of its
 * `size` vectors: the expected share, with headroom (OVERSAMPLE) that shrinks as the filter admits nearly all.
 */
export function indexCandidates(depth: number, size: number, matching: number): number {
  const share = Math.min(1, Math.max(1, matching) / Math.max(1, size));
  const oversample = share <= 0.5 ? OVERSAMPLE : 1 + (OVERSAMPLE - 1) * 2 * (1 - share);
  const wanted = Math.ceil((depth * oversample) / share) + 16;
  return Math.min(size, wanted, Math.max(MAX_INDEX_CANDIDATES, depth + 16));
}
