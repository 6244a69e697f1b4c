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

/** Cosine similarity of two vectors of any length (0 when their lengths differ or either is zero). */
export function cosine(a: Float32Array, b: Float32Array): number {
  if (a.length !== b.length) return 0;
  let dot = 0;
  let na = 0;
  let nb = 0;
  for (let i = 0; i < a.length; i += 1) {
    dot += a[i]! * b[i]!;
    na += a[i]! * a[i]!;
    nb += b[i]! * b[i]!;
  }
  return na === 0 || nb === 0 ? 0 : dot / Math.sqrt(na * nb);
}
