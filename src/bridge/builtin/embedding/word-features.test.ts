import { test } from 'node:test';
import assert from 'node:assert/strict';
import { charNgrams, FNV_OFFSET, fnvExtend, hashFeature } from './lexical-hashing.js';
import { stemWord } from './text-tokenizer.js';
import { WordFeatureCache } from './word-features.js';
import type { WordVectors } from './word-vector-cache.js';

const vocabulary = ['the', 'paint', 'sunrise'];
const wordVectors: WordVectors = {
  dimension: 2,
  size: 1000,
  indexOf: (word) => vocabulary.indexOf(word),
  addScaled: () => undefined,
};
const weightOf = (rank: number) => rank / 1000;

test('a word\'s features are its rank, SIF weight, stem and the hashes of its unigram, n-gram and bigram-prefix features', () => {
  const cache = new WordFeatureCache(wordVectors, 3, weightOf);
  const painting = cache.get('painting');
  assert.equal(painting.rank, -1);
  assert.equal(painting.weight, 1, 'an unknown word weighs as the rarest');
  assert.equal(painting.stop, false);
  assert.equal(painting.stem, stemWord('painting'));
  assert.equal(painting.unigram, hashFeature(`u:${stemWord('painting')}`));
  assert.deepEqual(painting.grams, charNgrams('painting', 3).map((gram) => hashFeature(`c:${gram}`)));
  assert.equal(fnvExtend(painting.bigramPrefix, 'sunris'), hashFeature(`b:${stemWord('painting')} sunris`));

  const sunrise = cache.get('sunrise');
  assert.equal(sunrise.rank, 2);
  assert.equal(sunrise.weight, 0.002);

  const the = cache.get('the');
  assert.equal(the.stop, true);
  assert.equal(the.grams.length, 0, 'a stopword adds no lexical features');
  assert.equal(the.bigramPrefix, FNV_OFFSET);
});

test('the cache starts over past its size and gives the same features again', () => {
  const small = new WordFeatureCache(wordVectors, 3, weightOf, 2);
  const fresh = new WordFeatureCache(wordVectors, 3, weightOf);
  const words = ['paint', 'sunrise', 'painting', 'paint', 'zebra', 'sunrise'];
  for (const word of words) assert.deepEqual(small.get(word), fresh.get(word), word);
});
