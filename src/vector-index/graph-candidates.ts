/**
 * How many candidates a search asks of a graph of the vectors (the usearch graph of the SQLite driver, or of a
 * PostgreSQL replica that keeps its own), to re-rank them exactly and keep `depth`.
 */

/** Approximate candidates at most, however selective the filter (the index search and the re-rank read grow with it). */
export const MAX_INDEX_CANDIDATES = 4000;
/**
 * Headroom over the expected number of survivors, for graph error and an uneven spread of matches: full for a
 * filter admitting at most half the vectors, falling to none as it admits them all (nothing to spread unevenly).
 */
const OVERSAMPLE = 2;
/**
 * Candidates an unfiltered search takes from the index and re-ranks exactly: `depth` x `oversample`, and 16 more.
 * At a million vectors, oversample 2 found 0.953 rather than 0.941 of the exact ten and cost p50 +1.8-2.2 ms over HTTP
 * (bench/NOTES.md, session 30): 1 by default.
 */
export function unfilteredCandidates(depth: number, size: number, oversample = 1): number {
  return Math.min(size, Math.ceil(depth * oversample) + 16);
}

/**
 * Whether an unfiltered search would ask the graph for every vector it holds (`asked` of `size`). Both drivers then
 * rank the stored vectors exactly instead when the store holds at most search.exact_max_candidates of them: no
 * costlier at that size, and right whatever the graph holds yet (a tiny graph can leave a vector no search reaches).
 * A graph that small beside a larger store is catching up, and is searched as it is.
 */
export function readsWholeGraph(asked: number, size: number): boolean {
  return size > 0 && asked >= size;
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
