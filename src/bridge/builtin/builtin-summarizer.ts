import type { SummaryProvider } from '../bridge.providers.js';
import { countWords, splitSentences, type Sentence } from './text-analysis.js';

/**
 * Extractive summaries with no model download:
 * 1. split passages into sentences; drop exact repeats;
 * 2. weigh stemmed content terms by TF-IDF over the sentences;
 * 3. rank sentences by TextRank (PageRank over the cosine-similarity graph)
 *    blended with similarity to the centroid of the whole text; very short
 *    sentences count less;
 * 4. pick by Maximal Marginal Relevance (relevance minus similarity to what is
 *    already picked) until the word budget is reached: a sentence that would
 *    overshoot is taken only if that lands closer to the target, so the result
 *    exceeds `targetWords` by at most one sentence;
 * 5. print the picked sentences in their original order.
 */
export const BUILTIN_SUMMARY_MODEL = 'builtin-textrank-v1';

export interface BuiltinSummarizerOptions {
  /** Trade-off between relevance (1) and novelty (0) in MMR. Default 0.7. */
  mmrLambda?: number;
  /** Above this many sentences TextRank (quadratic) is skipped; centroid only. Default 1000. */
  maxTextRankSentences?: number;
}

export function createBuiltinSummarizer(options: BuiltinSummarizerOptions = {}): SummaryProvider {
  return {
    provider: 'builtin',
    model: BUILTIN_SUMMARY_MODEL,
    summarize: async (texts, targetWords) => summarizeExtractive(texts, targetWords, options),
    check: async () => undefined,
  };
}

type SparseVector = Map<string, number>;

export function summarizeExtractive(texts: readonly string[], targetWords: number, options: BuiltinSummarizerOptions = {}): string {
  const target = Math.max(1, Math.floor(targetWords));
  const sentences = dedupe(splitSentences(texts));
  if (sentences.length === 0) return '';
  const totalWords = sentences.reduce((sum, s) => sum + s.words, 0);
  if (totalWords <= target) return sentences.map((s) => s.text).join(' ');

  const vectors = tfidfVectors(sentences);
  const relevance = rankSentences(sentences, vectors, options.maxTextRankSentences ?? 1000);
  const picked = selectByMmr(sentences, vectors, relevance, target, options.mmrLambda ?? 0.7);
  return picked
    .sort((a, b) => a - b)
    .map((i) => sentences[i]!.text)
    .join(' ');
}

function dedupe(sentences: Sentence[]): Sentence[] {
  const seen = new Set<string>();
  return sentences.filter((s) => {
    const key = s.text.toLowerCase().replace(/[^\p{L}\p{N}]+/gu, ' ').trim();
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

function tfidfVectors(sentences: readonly Sentence[]): SparseVector[] {
  const documentFrequency = new Map<string, number>();
  for (const s of sentences) for (const term of new Set(s.terms)) documentFrequency.set(term, (documentFrequency.get(term) ?? 0) + 1);
  const n = sentences.length;
  return sentences.map((s) => {
    const tf = new Map<string, number>();
    for (const term of s.terms) tf.set(term, (tf.get(term) ?? 0) + 1);
    const vector: SparseVector = new Map();
    let norm = 0;
    for (const [term, count] of tf) {
      const weight = (1 + Math.log(count)) * Math.log(1 + n / documentFrequency.get(term)!);
      vector.set(term, weight);
      norm += weight * weight;
    }
    norm = Math.sqrt(norm);
    if (norm > 0) for (const [term, w] of vector) vector.set(term, w / norm);
    return vector;
  });
}

function cosine(a: SparseVector, b: SparseVector): number {
  const [small, large] = a.size <= b.size ? [a, b] : [b, a];
  let dot = 0;
  for (const [term, w] of small) {
    const v = large.get(term);
    if (v !== undefined) dot += w * v;
  }
  return dot;
}

/** Relevance in [0, 1] per sentence. */
function rankSentences(sentences: readonly Sentence[], vectors: readonly SparseVector[], maxTextRank: number): number[] {
  const n = sentences.length;
  const centroid: SparseVector = new Map();
  for (const v of vectors) for (const [term, w] of v) centroid.set(term, (centroid.get(term) ?? 0) + w);
  let norm = 0;
  for (const w of centroid.values()) norm += w * w;
  norm = Math.sqrt(norm) || 1;
  for (const [term, w] of centroid) centroid.set(term, w / norm);
  const centroidScores = scaleToUnit(vectors.map((v) => cosine(v, centroid)));

  let scores = centroidScores;
  if (n <= maxTextRank && n > 2) {
    const textRank = scaleToUnit(pageRank(vectors));
    scores = centroidScores.map((c, i) => 0.5 * c + 0.5 * textRank[i]!);
  }
  return scores.map((score, i) => {
    const words = sentences[i]!.words;
    const shortPenalty = words < 4 ? 0.5 : words < 7 ? 0.8 : 1;
    return score * shortPenalty;
  });
}

/** PageRank over a dense similarity graph (edges below 0.01 dropped). */
function pageRank(vectors: readonly SparseVector[], damping = 0.85, iterations = 30): number[] {
  const n = vectors.length;
  const similarity = similarityMatrix(vectors);
  const outWeight = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    let sum = 0;
    for (let j = 0; j < n; j++) sum += similarity[i * n + j]!;
    outWeight[i] = sum;
  }
  let rank = new Float64Array(n).fill(1 / n);
  for (let iter = 0; iter < iterations; iter++) {
    const next = new Float64Array(n).fill((1 - damping) / n);
    let dangling = 0;
    for (let i = 0; i < n; i++) {
      if (outWeight[i] === 0) {
        dangling += rank[i]!;
        continue;
      }
      const share = (damping * rank[i]!) / outWeight[i]!;
      const row = i * n;
      for (let j = 0; j < n; j++) {
        const w = similarity[row + j]!;
        if (w !== 0) next[j]! += share * w;
      }
    }
    if (dangling > 0) for (let j = 0; j < n; j++) next[j]! += (damping * dangling) / n;
    rank = next;
  }
  return Array.from(rank);
}

/** Symmetric cosine matrix (zero diagonal), built from an inverted index of terms. */
function similarityMatrix(vectors: readonly SparseVector[]): Float32Array {
  const n = vectors.length;
  const postings = new Map<string, Array<[number, number]>>();
  vectors.forEach((vector, i) => {
    for (const [term, w] of vector) {
      let list = postings.get(term);
      if (!list) postings.set(term, (list = []));
      list.push([i, w]);
    }
  });
  const matrix = new Float32Array(n * n);
  for (const list of postings.values()) {
    for (let a = 0; a < list.length; a++) {
      const [i, wi] = list[a]!;
      for (let b = a + 1; b < list.length; b++) {
        const [j, wj] = list[b]!;
        const product = wi * wj;
        matrix[i * n + j]! += product;
        matrix[j * n + i]! += product;
      }
    }
  }
  for (let k = 0; k < matrix.length; k++) if (matrix[k]! <= 0.01) matrix[k] = 0;
  return matrix;
}

function scaleToUnit(values: readonly number[]): number[] {
  let min = Infinity;
  let max = -Infinity;
  for (const v of values) {
    if (v < min) min = v;
    if (v > max) max = v;
  }
  const span = max - min;
  return values.map((v) => (span > 1e-12 ? (v - min) / span : 1));
}

function selectByMmr(sentences: readonly Sentence[], vectors: readonly SparseVector[], relevance: readonly number[], target: number, lambda: number): number[] {
  const picked: number[] = [];
  const remaining = new Set(sentences.map((_, i) => i));
  /** Highest similarity of each sentence to anything picked so far. */
  const redundancy = new Array<number>(sentences.length).fill(0);
  let words = 0;

  const mmr = (i: number): number => lambda * relevance[i]! - (1 - lambda) * redundancy[i]!;
  const take = (i: number): void => {
    picked.push(i);
    remaining.delete(i);
    words += sentences[i]!.words;
    for (const j of remaining) redundancy[j] = Math.max(redundancy[j]!, cosine(vectors[i]!, vectors[j]!));
  };

  while (words < target && remaining.size > 0) {
    const budget = target - words;
    let bestFit = -1;
    let bestAny = -1;
    for (const i of remaining) {
      if (bestAny === -1 || mmr(i) > mmr(bestAny)) bestAny = i;
      if (sentences[i]!.words <= budget && (bestFit === -1 || mmr(i) > mmr(bestFit))) bestFit = i;
    }
    if (bestFit !== -1) {
      take(bestFit);
      continue;
    }
    // Nothing fits: overshoot with the best sentence only if that ends nearer the target
    // (or if the summary would otherwise be empty), then stop.
    const overshoot = words + sentences[bestAny]!.words - target;
    if (picked.length === 0 || overshoot < budget) take(bestAny);
    break;
  }
  return picked;
}

/** Word count as the /summarize response reports it. */
export { countWords };
