import { ENGLISH_STOPWORDS } from '../../../domain/stopwords.js';

/**
 * Pseudo-relevance feedback: the best hits of a first search stand in for
 * what the user meant, and a second search looks for more like them. Both
 * halves work on a ranked list of keys, so they do not depend on how a
 * storage driver ranks full text or finds vectors.
 */

/** How many of the first search's best hits serve as feedback. */
export const FEEDBACK_HITS = 5;
/** Weight of the feedback centroid added to the query vector (Rocchio's beta; alpha = 1). */
export const ROCCHIO_BETA = 0.5;
/** How many words RM3 adds to a keyword query. */
export const EXPANSION_TERMS = 8;

export interface FeedbackVector {
  vector: Float32Array;
  /** The hit's score in the first search, > 0. */
  score: number;
}

/**
 * Rocchio: q + beta * (score-weighted mean of the feedback vectors), unit length.
 * The query keeps its own direction; the hits pull it towards the neighbourhood
 * of what actually matched (names, topics the question only implies).
 */
export function rocchioQuery(query: Float32Array, feedback: readonly FeedbackVector[], beta: number = ROCCHIO_BETA): Float32Array {
  const out = Float32Array.from(query);
  const total = feedback.reduce((sum, item) => sum + Math.max(0, item.score), 0);
  if (beta <= 0 || total <= 0) return out;
  for (const item of feedback) {
    const share = (beta * Math.max(0, item.score)) / total;
    for (let d = 0; d < out.length; d += 1) out[d]! += share * (item.vector[d] ?? 0);
  }
  let norm = 0;
  for (let d = 0; d < out.length; d += 1) norm += out[d]! * out[d]!;
  if (norm > 0) {
    const inverse = 1 / Math.sqrt(norm);
    for (let d = 0; d < out.length; d += 1) out[d]! *= inverse;
  }
  return out;
}

export interface FeedbackText {
  text: string;
  /** The hit's score in the first search, > 0. */
  score: number;
}

const WORD = /[\p{L}\p{N}]+/gu;

/** Lower-cased content words (letters or digits, no stopwords, at least 3 characters, not all digits). */
export function contentTerms(text: string): string[] {
  return (text.toLowerCase().match(WORD) ?? [])
    .filter((word) => word.length >= 3 && !ENGLISH_STOPWORDS.has(word) && !/^\d+$/.test(word));
}

/**
 * RM3's relevance model over the feedback hits: P(w|R) = sum over hits of
 * score * tf(w, hit) / |hit|, times an idf taken from `background` (texts of
 * the wider candidate list, so words common to every message - a speaker's
 * name, "really", "great" - weigh little). Returns the best `count` words not
 * already in the query, best first.
 */
export function expansionTerms(
  feedback: readonly FeedbackText[],
  background: readonly string[],
  queryWords: readonly string[],
  count: number = EXPANSION_TERMS,
): string[] {
  const documentFrequency = new Map<string, number>();
  for (const text of background) for (const word of new Set(contentTerms(text))) {
    documentFrequency.set(word, (documentFrequency.get(word) ?? 0) + 1);
  }
  const total = feedback.reduce((sum, item) => sum + Math.max(0, item.score), 0);
  if (total <= 0) return [];
  const exclude = new Set(queryWords.map((word) => word.toLowerCase()));
  const weights = new Map<string, number>();
  for (const item of feedback) {
    const words = contentTerms(item.text);
    if (words.length === 0) continue;
    const share = Math.max(0, item.score) / total / words.length;
    for (const word of words) weights.set(word, (weights.get(word) ?? 0) + share);
  }
  const n = Math.max(background.length, 1);
  const scored: Array<[string, number]> = [];
  for (const [word, weight] of weights) {
    if (exclude.has(word)) continue;
    const idf = Math.log((n + 1) / ((documentFrequency.get(word) ?? 0) + 0.5));
    if (idf <= 0) continue;
    scored.push([word, weight * idf]);
  }
  return scored.sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1)).slice(0, count).map(([word]) => word);
}
