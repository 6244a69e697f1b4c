export interface RankedHit {
  readonly id: string;
  readonly score: number;
}

export type FusionMethod = 'weighted-sum' | 'rrf';

export interface FusionOptions {
  readonly method?: FusionMethod;
  /** Share of the fused score from the keyword ranking, 0..1; the rest comes from the dense ranking. */
  readonly keywordWeight?: number;
  /** RRF damping constant; only for method 'rrf'. */
  readonly rrfK?: number;
  readonly limit?: number;
}

/**
 * Chosen on the LoCoMo dev set: a weighted sum with keyword 0.8 rather than RRF (k 60)
 * (bench/NOTES.md, "Settled by probes since deleted").
 */
export const FUSION_METHOD: FusionMethod = 'weighted-sum';
export const KEYWORD_WEIGHT = 0.8;
export const RRF_K = 60;

/**
 * Scales scores to 0..1 by the best score of the list. Dividing by the max
 * (rather than min-max) keeps a weak last hit from being pushed to exactly 0,
 * and works for both bm25 (pass it negated: higher = better) and cosine.
 */
function scaleByMax(hits: readonly RankedHit[]): Map<string, number> {
  const scaled = new Map<string, number>();
  let max = 0;
  for (const hit of hits) max = Math.max(max, hit.score);
  for (const hit of hits) {
    if (!scaled.has(hit.id)) scaled.set(hit.id, max > 0 ? Math.max(0, hit.score) / max : 0);
  }
  return scaled;
}

function reciprocalRanks(hits: readonly RankedHit[], k: number): Map<string, number> {
  const ranks = new Map<string, number>();
  const ordered = [...hits].sort((a, b) => b.score - a.score);
  ordered.forEach((hit, index) => {
    if (!ranks.has(hit.id)) ranks.set(hit.id, (k + 1) / (k + index + 1));
  });
  return ranks;
}

/**
 * Fuses a keyword ranking (scores higher = better, e.g. -bm25()) and a dense
 * ranking (cosine) into one list sorted by descending score in 0..1.
 * A hit missing from one list gets 0 from that side. Ties break by id for determinism.
 */
export function fuseRankings(keyword: readonly RankedHit[], dense: readonly RankedHit[], options: FusionOptions = {}): RankedHit[] {
  const method = options.method ?? FUSION_METHOD;
  const keywordWeight = options.keywordWeight ?? KEYWORD_WEIGHT;
  const k = options.rrfK ?? RRF_K;
  const keywordScores = method === 'rrf' ? reciprocalRanks(keyword, k) : scaleByMax(keyword);
  const denseScores = method === 'rrf' ? reciprocalRanks(dense, k) : scaleByMax(dense);
  const fused: RankedHit[] = [];
  for (const id of new Set([...keywordScores.keys(), ...denseScores.keys()])) {
    const score = keywordWeight * (keywordScores.get(id) ?? 0) + (1 - keywordWeight) * (denseScores.get(id) ?? 0);
    fused.push({ id, score });
  }
  fused.sort((a, b) => b.score - a.score || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  return options.limit === undefined ? fused : fused.slice(0, options.limit);
}
