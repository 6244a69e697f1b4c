import { addHashed, addHashedFeature, fnvExtend } from './lexical-hashing.js';
import { tokenizeWords } from './text-tokenizer.js';
import { WordFeatureCache, type WordFeatures } from './word-features.js';
import type { WordVectors } from './word-vector-cache.js';

/**
 * How a text becomes one vector: a SIF-weighted mean of GloVe word vectors in
 * the first `wordVectors.dimension` components and hashed lexical features in
 * the rest. Each block is normalized and scaled so that, for two vectors,
 * cosine = denseShare * cos(dense blocks) + (1 - denseShare) * cos(lexical blocks).
 */
export interface EmbeddingRecipe {
  readonly dimension: number;
  /** Share of the cosine that comes from the GloVe block, 0..1. */
  readonly denseShare: number;
  /** SIF smoothing `a` in a / (a + p(word)); smaller down-weights frequent words harder. */
  readonly sifA: number;
  /** Whether stopwords contribute (SIF-down-weighted) to the GloVe block. */
  readonly denseStopwords: boolean;
  /** Subtract the projection on the vocabulary's dominant direction (SIF "common component removal"). */
  readonly removeCommonComponent: boolean;
  readonly unigramWeight: number;
  readonly bigramWeight: number;
  readonly charNgramWeight: number;
  readonly charNgramSize: number;
}

export const DEFAULT_RECIPE: EmbeddingRecipe = {
  dimension: 768,
  denseShare: 0.5,
  sifA: 1e-3,
  denseStopwords: false,
  removeCommonComponent: false,
  unigramWeight: 1,
  bigramWeight: 0.5,
  charNgramWeight: 0.3,
  charNgramSize: 3,
};

/** Zipf estimate of a word's corpus probability from its frequency rank (harmonic number of 400k words ≈ 13.5). */
export function zipfProbability(rank: number): number {
  return 1 / ((rank + 1) * 13.5);
}

export function sifWeight(rank: number, sifA: number): number {
  return sifA / (sifA + zipfProbability(rank));
}

/**
 * Dominant direction of the SIF-weighted vectors of the `topWords` most frequent
 * words, by power iteration. Deterministic: fixed start vector and iteration count.
 */
export function commonComponent(wordVectors: WordVectors, sifA: number, topWords = 20_000): Float32Array {
  const dim = wordVectors.dimension;
  const count = Math.min(topWords, wordVectors.size);
  const rows: Float32Array[] = [];
  for (let r = 0; r < count; r += 1) {
    const row = new Float32Array(dim);
    wordVectors.addScaled(r, sifWeight(r, sifA), row);
    rows.push(row);
  }
  let direction = new Float32Array(dim).fill(1 / Math.sqrt(dim));
  for (let iteration = 0; iteration < 30; iteration += 1) {
    const next = new Float32Array(dim);
    for (const row of rows) {
      let dot = 0;
      for (let d = 0; d < dim; d += 1) dot += row[d]! * direction[d]!;
      for (let d = 0; d < dim; d += 1) next[d]! += dot * row[d]!;
    }
    direction = normalizeInPlace(next);
  }
  return direction;
}

export function normalizeInPlace<T extends Float32Array>(vector: T): T {
  let sum = 0;
  for (let i = 0; i < vector.length; i += 1) sum += vector[i]! * vector[i]!;
  if (sum > 0) {
    const inverse = 1 / Math.sqrt(sum);
    for (let i = 0; i < vector.length; i += 1) vector[i]! *= inverse;
  }
  return vector;
}

export interface VectorComposer {
  readonly dimension: number;
  compose(text: string): Float32Array;
}

export function createVectorComposer(wordVectors: WordVectors, recipe: EmbeddingRecipe = DEFAULT_RECIPE): VectorComposer {
  const denseDims = wordVectors.dimension;
  const lexicalDims = recipe.dimension - denseDims;
  if (lexicalDims <= 0) throw new Error(`dimension ${recipe.dimension} leaves no room for lexical features`);
  const common = recipe.removeCommonComponent ? commonComponent(wordVectors, recipe.sifA) : null;
  const denseScale = Math.sqrt(recipe.denseShare);
  const lexicalScale = Math.sqrt(1 - recipe.denseShare);
  const cache = new WordFeatureCache(wordVectors, recipe.charNgramSize, (rank) => sifWeight(rank, recipe.sifA));

  return {
    dimension: recipe.dimension,
    compose(text) {
      const out = new Float32Array(recipe.dimension);
      const dense = out.subarray(0, denseDims);
      const lexical = out.subarray(denseDims);
      let previous: WordFeatures | null = null;
      const words = tokenizeWords(text);
      let contentCount = 0;
      for (const word of words) {
        const features = cache.get(word);
        const { rank, stop, weight } = features;
        if (rank >= 0 && (!stop || recipe.denseStopwords)) wordVectors.addScaled(rank, weight, dense);
        if (stop) continue;
        contentCount += 1;
        addHashed(lexical, 0, lexicalDims, features.unigram, recipe.unigramWeight * weight);
        if (previous !== null && recipe.bigramWeight > 0) {
          // The bigram feature `b:<previous stem> <stem>`, hashed on from the previous word's prefix.
          addHashed(lexical, 0, lexicalDims, fnvExtend(previous.bigramPrefix, features.stem), recipe.bigramWeight * weight);
        }
        if (recipe.charNgramWeight > 0) {
          const { grams } = features;
          const gramWeight = (recipe.charNgramWeight * weight) / Math.sqrt(grams.length);
          for (const gram of grams) addHashed(lexical, 0, lexicalDims, gram, gramWeight);
        }
        previous = features;
      }
      // Keep the unit-length promise for texts without content words ("What did you do?", "", "!!"):
      // fall back to their stopwords, then to one fixed feature shared by all empty texts.
      if (contentCount === 0) {
        for (const word of words) addHashedFeature(lexical, 0, lexicalDims, `u:${word}`, 1);
        if (words.length === 0) addHashedFeature(lexical, 0, lexicalDims, 'empty', 1);
      }
      if (common) {
        let dot = 0;
        for (let d = 0; d < denseDims; d += 1) dot += dense[d]! * common[d]!;
        for (let d = 0; d < denseDims; d += 1) dense[d]! -= dot * common[d]!;
      }
      normalizeInPlace(dense);
      normalizeInPlace(lexical);
      for (let d = 0; d < denseDims; d += 1) dense[d]! *= denseScale;
      for (let d = 0; d < lexicalDims; d += 1) lexical[d]! *= lexicalScale;
      // Re-normalize: a block may be empty (no known words), and the port promises unit length.
      return normalizeInPlace(out);
    },
  };
}
