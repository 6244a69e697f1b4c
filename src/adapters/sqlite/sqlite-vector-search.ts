import type { Database } from 'better-sqlite3';
import { exactTopK, type PackedVectors } from '../../domain/exact-search.js';
import type { ScoredKey, SearchFilter } from '../../domain/search.js';
import type { VectorIndex } from '../../ports/vector-index.js';
import type { VectorSearch } from '../../ports/vector-search.js';
import { hasFilter, searchFilterWhere } from '../sql/filter-sql.js';
import { admittedKeys } from './sqlite-admitted-keys.js';
import { inKeys, keysParam, StatementCache } from './sqlite-statements.js';
import { EmbeddedMatchCounter } from './sqlite-vector-count.js';

/**
 * Below this many filtered candidates, an exact scan of their stored vectors is cheap and exact. It runs on the
 * request thread: at 1,070,000 vectors a 1% folder filter (10,200 vectors) took p50 68.4 ms exactly (recall 1.000)
 * against 68.7 ms through the graph (recall 0.967; `npx tsx scripts/exact-threshold-probe.ts --thresholds
 * 4000,16000`), but 16,000 held the event loop ~100 ms a question and had the scale bench's back-to-back
 * filtered questions shed as overload (503) at 100,000 messages. The graph path waits on the index thread.
 */
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
 *   selectivity needs for `depth` to survive it; their keys are checked against
 *   the filter, and the stored float32 vectors of those it admits re-rank them
 *   exactly (once more, wider, when far fewer pass than the share predicts).
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
    if (!hasFilter(filter)) {
      const keys = (await index.search(vector, indexCandidates(depth, size, size))).map((item) => item.key);
      return exactTopK(vector, this.vectorsOf(keys, vector.length), depth);
    }
    const cap = Math.max(this.exactMaxCandidates + 1, Math.min(size, this.exactMaxCandidates * COUNT_CAP_FACTOR));
    const matching = Math.max(1, this.counter.admitted(filter, cap, size));
    if (matching <= this.exactMaxCandidates) {
      return exactTopK(vector, this.vectorsMatching(filter, this.exactMaxCandidates, vector.length), depth);
    }
    // A count under its cap is exact: only then is the filter known to admit a small share.
    const selective = matching < cap && matching <= size * CONVERSATION_SET_MAX_SHARE;
    const admittedNearest = async (count: number) =>
      admittedKeys(this.statements, (await index.search(vector, count)).map((item) => item.key), filter, selective);
    const candidates = indexCandidates(depth, size, matching);
    let admitted = await admittedNearest(candidates);
    // Fewer than half the survivors the filter's share predicts: the filter correlates with the query (recent
    // messages, asked about old ones). Once, wider: without it those matches would never be reached.
    const expected = (candidates * matching) / Math.max(1, size);
    if (candidates < size && admitted.length < Math.min(depth, matching, expected / 2)) {
      admitted = await admittedNearest(Math.min(size, Math.max(candidates * CORRELATED_WIDENING, MAX_INDEX_CANDIDATES)));
    }
    return exactTopK(vector, this.vectorsOf(admitted, vector.length), depth);
  }

  /** Stored vectors by key; a vector is deleted with its message (ON DELETE CASCADE), so a key without one is gone. */
  private vectorsOf(keys: readonly number[], dimension: number): PackedVectors {
    if (keys.length === 0) return { keys: [], matrix: new Float32Array(0), dimension };
    const rows = this.statements.get(`SELECT message_seq AS key, vector FROM message_vectors WHERE ${inKeys('message_seq')}`)
      .raw().all(keysParam(keys)) as Array<[number, Buffer]>;
    return packRows(rows, dimension);
  }

  private vectorsMatching(filter: SearchFilter, limit: number, dimension: number): PackedVectors {
    const where = searchFilterWhere(filter);
    const rows = this.statements.get(`
      SELECT v.message_seq AS key, v.vector FROM message_vectors v
      JOIN messages m ON m.seq = v.message_seq JOIN conversations c ON c.id = m.conversation_id
      WHERE ${where.sql} LIMIT ?`).raw().all(...where.params, limit) as Array<[number, Buffer]>;
    return packRows(rows, dimension);
  }
}

/** [key, float32 blob] rows into one matrix; a blob of another length (another model's) is left out. */
function packRows(rows: ReadonlyArray<[number, Buffer]>, dimension: number): PackedVectors {
  const bytes = dimension * 4;
  const kept = rows.filter(([, blob]) => blob.byteLength === bytes);
  const matrix = new Float32Array(kept.length * dimension);
  const target = new Uint8Array(matrix.buffer);
  kept.forEach(([, blob], row) => target.set(blob, row * bytes));
  return { keys: kept.map(([key]) => key), matrix, dimension };
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
