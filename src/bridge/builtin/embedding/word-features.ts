import { charNgrams, FNV_OFFSET, fnvExtend, hashFeature } from './lexical-hashing.js';
import { STOPWORDS, stemWord } from './text-tokenizer.js';
import type { WordVectors } from './word-vector-cache.js';

/**
 * What one word adds to a text's vector, worked out once per distinct word. Composing a text looked up its
 * frequency rank, stemmed it and hashed a feature string for its stem and each of its character n-grams at every
 * occurrence; words repeat, so the pipeline's embedder spent most of its time redoing that (52 µs a text of the
 * bench corpus). The values are the ones the composer used to compute, so vectors stay bit for bit the same.
 */
export interface WordFeatures {
  /** Row in the word vectors (= frequency rank), or -1 when unknown. */
  rank: number;
  stop: boolean;
  /** SIF weight of the word (unknown words weigh as the rarest). */
  weight: number;
  /** Porter stem (content words only; '' for stopwords). */
  stem: string;
  /** Hash of the unigram feature `u:<stem>`. */
  unigram: number;
  /** Hashes of the character n-gram features `c:<gram>`, in order. */
  grams: Uint32Array;
  /** FNV-1a state after `b:<stem> `: the next word's stem completes their bigram feature's hash. */
  bigramPrefix: number;
}

/** Distinct words remembered at most; past it the cache starts over (a few MB, far above a conversation's vocabulary). */
const MAX_WORDS = 50_000;

export class WordFeatureCache {
  private readonly words = new Map<string, WordFeatures>();

  constructor(
    private readonly wordVectors: WordVectors,
    private readonly charNgramSize: number,
    private readonly weightOf: (rank: number) => number,
    private readonly maxWords = MAX_WORDS,
  ) {}

  get(word: string): WordFeatures {
    let features = this.words.get(word);
    if (features === undefined) {
      if (this.words.size >= this.maxWords) this.words.clear();
      features = this.compute(word);
      this.words.set(word, features);
    }
    return features;
  }

  private compute(word: string): WordFeatures {
    const rank = this.wordVectors.indexOf(word);
    const stop = STOPWORDS.has(word);
    const weight = this.weightOf(rank < 0 ? this.wordVectors.size : rank);
    if (stop) return { rank, stop, weight, stem: '', unigram: 0, grams: new Uint32Array(0), bigramPrefix: FNV_OFFSET };
    const stem = stemWord(word);
    return {
      rank, stop, weight, stem,
      unigram: hashFeature(`u:${stem}`),
      grams: Uint32Array.from(charNgrams(word, this.charNgramSize), (gram) => hashFeature(`c:${gram}`)),
      bigramPrefix: fnvExtend(FNV_OFFSET, `b:${stem} `),
    };
  }
}
