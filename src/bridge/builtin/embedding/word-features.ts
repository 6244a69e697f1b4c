import { charNgrams, FNV_OFFSET, fnvExtend, hashFeature } from './lexical-hashing.js';
import { STOPWORDS, stemWord } from './text-tokenizer.js';
import type { WordVectors } from './word-vector-cache.js';

/**
 * What one word adds to a text's vector, worked out once per distinct word. Composing a text looked up its
 * frequency rank, stemmed it and hashed a feature string for its stem and each of its character n-grams at every
 * occurrence; words repeat, so the pipeline's embedder spent most of its time redoing that (49.9 rather than 21.5 µs
 * of CPU a text of the bench corpus; bench/NOTES.md, session 17). The values are the ones the composer used to
 * compute, so vectors stay bit for bit the same.
 */
export interface WordFeatures {
  /** Row in the word vectors (= frequency rank), or -1 when unknown. */
  readonly rank: number;
  readonly stop: boolean;
  /** SIF weight of the word (unknown words weigh as the rarest). */
  readonly weight: number;
  /** Porter stem (content words only; '' for stopwords). */
  readonly stem: string;
  /** Hash of the unigram feature `u:<stem>`. */
  readonly unigram: number;
  /** Hashes of the character n-gram features `c:<gram>`, in order. */
  readonly grams: readonly number[];
  /** FNV-1a state after `b:<stem> `: the next word's stem completes their bigram feature's hash. */
  readonly bigramPrefix: number;
}

/** Distinct words remembered at most (about 7 MB); past it the cache starts over and fills again with the words in use. */
const MAX_WORDS = 20_000;

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
    if (stop) return { rank, stop, weight, stem: '', unigram: 0, grams: [], bigramPrefix: FNV_OFFSET };
    const stem = stemWord(word);
    return {
      rank, stop, weight, stem,
      unigram: hashFeature(`u:${stem}`),
      grams: charNgrams(word, this.charNgramSize).map((gram) => hashFeature(`c:${gram}`)),
      bigramPrefix: fnvExtend(FNV_OFFSET, `b:${stem} `),
    };
  }
}
