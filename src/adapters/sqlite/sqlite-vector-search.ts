import type { Database } from 'better-sqlite3';
import type { ScoredKey, SearchFilter } from '../../domain/search.js';
import type { VectorIndex } from '../../ports/vector-index.js';
import type { VectorSearch } from '../../ports/vector-search.js';
import { hasFilter } from '../sql/filter-sql.js';
import { filterReadsOn, type FilterReads } from './sqlite-filter-reads.js';
import { EmbeddedMatchCounter } from './sqlite-vector-count.js';
import { indexCandidates, MAX_INDEX_CANDIDATES, readsWholeGraph, unfilteredCandidates } from '../../vector-index/graph-candidates.js';

/**
 * Below this many filtered candidates, an exact scan of their stored vectors is cheap and exact. At 1,070,000
 * vectors a 1% folder filter (10,200 vectors) took p50 68.4 ms exactly (recall 1.000) against 68.7 ms through
 * the graph (recall 0.967; bench/NOTES.md, "Settled by probes since deleted"). The scan, and the
 * re-rank of the graph's candidates, run on a thread of their own (sqlite-filter-reads.ts); the graph search on the
 * index thread.
 */
export const EXACT_SEARCH_MAX_CANDIDATES = 4000;
/**
 * A filter the graph cannot serve at full depth (its candidates capped, fewer expected to pass than the depth asked)
 * is scanned exactly while it admits at most this many times exactMaxCandidates. At 1,012,033 vectors of real
 * dialogue text a 1% folder (10,100 vectors) found 0.774 of the exact ten through the graph (p50 / p95 19.8 / 24.7
 * ms over HTTP) and all of them scanned (38.7 / 41.3 ms; bench/RESULTS.md, session 38).
 */
const CAPPED_EXACT_FACTOR = 4;
/** Filters counted to admit at most this share of the vectors check candidates against a set of their conversations. */
const CONVERSATION_SET_MAX_SHARE = 0.1;
/** How much wider the one retry of a filter that correlates with the query looks (at least MAX_INDEX_CANDIDATES). */
const CORRELATED_WIDENING = 8;
/**
 * Survivors re-ranked exactly at most, best first by the graph's score: depth x this, and at least MIN_RERANKED
 * (MIN_RERANKED_WIDER after the wider retry, whose survivors lie deep in the graph, far from the question, and are
 * ordered less well by its scores; bench/NOTES.md, session 34). Reading each one's stored vector costs about 8 µs.
 */
const RERANK_FACTOR = 4;
const MIN_RERANKED = 400;
const MIN_RERANKED_WIDER = 800;
/** Matches are counted up to this many times exactMaxCandidates: enough to size the candidate pool, cheap to count. */
const COUNT_CAP_FACTOR = 25;

export interface SqliteVectorSearchOptions {
  /** Filtered searches matching at most this many vectors are answered by an exact scan. */
  exactMaxCandidates?: number;
  /** An unfiltered search re-ranks depth x this (+ 16) of the index's candidates (search.rerank_oversample; default 1). */
  rerankOversample?: number;
}

export interface SqliteVectorSearchDeps {
  /** Where exact scans and filter samples are read: the filter-read thread in the service; this connection when absent. */
  reads?: FilterReads;
}

/**
 * Vector search over the SQLite store, in one pass whatever the filter:
 * - few matches (at most exactMaxCandidates): exact cosine over their stored vectors;
 * - otherwise the HNSW index gives candidates, as many as the filter's
 *   selectivity needs for `depth` to survive it; their keys are checked against
 *   the filter, and the stored float32 vectors of those it admits re-rank them
 *   exactly (once more, deeper, when far fewer pass than the share predicts).
 * The index holds i8 (or f16) vectors: the re-rank makes scores and order exact among the candidates.
 */
export class SqliteVectorSearch implements VectorSearch {
  private readonly exactMaxCandidates: number;
  private readonly rerankOversample: number;
  private readonly counter: EmbeddedMatchCounter;
  private readonly reads: FilterReads;

  constructor(db: Database, private readonly localIndex: () => VectorIndex | null, options: SqliteVectorSearchOptions & SqliteVectorSearchDeps = {}) {
    this.counter = new EmbeddedMatchCounter(db);
    this.reads = options.reads ?? filterReadsOn(db);
    this.exactMaxCandidates = options.exactMaxCandidates ?? EXACT_SEARCH_MAX_CANDIDATES;
    this.rerankOversample = options.rerankOversample ?? 1;
  }

  async nearest(vector: Float32Array, filter: SearchFilter, depth: number): Promise<ScoredKey[]> {
    const index = this.localIndex();
    if (index === null) return [];
    const size = index.size();
    if (!hasFilter(filter)) {
      const asked = unfilteredCandidates(depth, size, this.rerankOversample);
      // As on PostgreSQL: only while the store holds at most exactMaxCandidates vectors (counted up to one more,
      // remembered until a write), so a graph catching up with a large store is searched as it is.
      if (readsWholeGraph(asked, size) && this.counter.count({}, this.exactMaxCandidates + 1) <= this.exactMaxCandidates) {
        return this.reads.scan(vector, filter, this.exactMaxCandidates, depth);
      }
      const keys = (await index.search(vector, asked)).map((item) => item.key);
      return this.reads.rerank(vector, keys, depth);
    }
    const cap = Math.max(this.exactMaxCandidates + 1, Math.min(size, this.exactMaxCandidates * COUNT_CAP_FACTOR));
    const matching = Math.max(1, this.counter.admitted(filter, cap, size));
    if (scansExactly(depth, size, matching, this.exactMaxCandidates)) {
      return this.reads.scan(vector, filter, this.exactMaxCandidates * CAPPED_EXACT_FACTOR, depth);
    }
    // A count under its cap is exact: only then is the filter known to admit a small share.
    const selective = matching < cap && matching <= size * CONVERSATION_SET_MAX_SHARE;
    /** The candidates the filter admits, best first by the graph's (approximate) score. */
    const admittedNearest = async (count: number): Promise<ScoredKey[]> => {
      const found = await index.search(vector, count);
      const passing = new Set(await this.reads.admit(found.map((item) => item.key), filter, { selective, share: matching / Math.max(1, size) }));
      return found.filter((item) => passing.has(item.key));
    };
    const candidates = indexCandidates(depth, size, matching);
    let admitted = await admittedNearest(candidates);
    // Fewer than half the survivors the filter's share predicts: the filter's matches lie away from the question
    // (a folder about another topic; recent messages, asked about old ones). Once more, wider: its survivors
    // include the first pass's, and matches near the question stay.
    const expected = (candidates * matching) / Math.max(1, size);
    const widen = candidates < size && admitted.length < Math.min(depth, matching, expected / 2);
    if (widen) admitted = await admittedNearest(Math.min(size, Math.max(candidates * CORRELATED_WIDENING, MAX_INDEX_CANDIDATES)));
    const reranked = Math.max(depth * RERANK_FACTOR, widen ? MIN_RERANKED_WIDER : MIN_RERANKED);
    return this.reads.rerank(vector, admitted.slice(0, reranked).map((item) => item.key), depth);
  }
}

/** Whether a filter admitting `matching` of `size` vectors is ranked by an exact scan of them rather than through the graph. */
export function scansExactly(depth: number, size: number, matching: number, exactMaxCandidates: number): boolean {
  if (matching <= exactMaxCandidates) return true;
  if (matching > exactMaxCandidates * CAPPED_EXACT_FACTOR) return false;
  return (indexCandidates(depth, size, matching) * matching) / Math.max(1, size) < depth;
}
