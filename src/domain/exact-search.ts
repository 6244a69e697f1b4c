import type { ScoredKey } from './search.js';

/** Exact cosine top-k over a candidate set; vectors are L2-normalized, so cosine is the dot product. */
export function exactTopK(
  query: Float32Array,
  candidates: ReadonlyArray<{ key: number; vector: Float32Array }>,
  k: number,
): ScoredKey[] {
  const scored = candidates.map(({ key, vector }) => {
    let dot = 0;
    for (let i = 0; i < vector.length; i += 1) dot += vector[i]! * query[i]!;
    return { key, score: dot };
  });
  scored.sort((a, b) => b.score - a.score || a.key - b.key);
  return scored.slice(0, k);
}
