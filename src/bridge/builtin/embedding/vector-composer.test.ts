import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createVectorComposer, DEFAULT_RECIPE, normalizeInPlace, sifWeight, type EmbeddingRecipe } from './vector-composer.js';
import { addHashedFeature, charNgrams } from './lexical-hashing.js';
import { STOPWORDS, stemWord, tokenizeWords } from './text-tokenizer.js';
import type { WordVectors } from './word-vector-cache.js';

/** Hand-made 4-d "GloVe": car and automobile point the same way, banana elsewhere. */
function fakeWordVectors(): WordVectors {
  const table: Array<[string, number[]]> = [
    ['the', [0.1, 0.1, 0.1, 0.1]],
    ['car', [1, 0.1, 0, 0]],
    ['automobile', [0.9, 0.2, 0, 0]],
    ['banana', [0, 0, 1, 0.2]],
    ['drive', [0.7, 0.6, 0, 0]],
  ];
  return {
    dimension: 4,
    size: table.length + 10_000,
    indexOf: (word) => table.findIndex(([known]) => known === word) * 2000,
    addScaled(row, weight, target) {
      table[row / 2000]![1].forEach((value, d) => { target[d]! += weight * value; });
    },
  };
}

const cosine = (a: Float32Array, b: Float32Array): number => a.reduce((sum, value, i) => sum + value * b[i]!, 0);
const composer = createVectorComposer(fakeWordVectors(), { ...DEFAULT_RECIPE, dimension: 64, removeCommonComponent: false });

test('vectors have the recipe dimension, unit length and are deterministic', () => {
  for (const text of ['I drive a car', '', '?!', 'What did you do?', 'Zyxwvut qwerty']) {
    const vector = composer.compose(text);
    assert.equal(vector.length, 64);
    assert.ok(Math.abs(Math.hypot(...vector) - 1) < 1e-5, `norm of "${text}"`);
    assert.deepEqual(composer.compose(text), vector);
  }
});

test('the GloVe block generalises beyond shared words', () => {
  const car = composer.compose('car');
  assert.ok(cosine(car, composer.compose('automobile')) > cosine(car, composer.compose('banana')) + 0.2);
});

test('the lexical block matches inflections through stemming and character n-grams', () => {
  const query = composer.compose('painting sunrises');
  assert.ok(cosine(query, composer.compose('I painted a sunrise')) > cosine(query, composer.compose('I bought a banana')) + 0.3);
});

test('SIF weight falls with word frequency', () => {
  assert.ok(sifWeight(0, 1e-3) < 0.05);
  assert.ok(sifWeight(50_000, 1e-3) > 0.95);
});

test('a recipe without room for lexical features is rejected', () => {
  assert.throws(() => createVectorComposer(fakeWordVectors(), { ...DEFAULT_RECIPE, dimension: 4 }));
});

/** The composition as defined, every feature worked out at each occurrence (what the composer's per-word cache must equal). */
function composeByDefinition(wordVectors: WordVectors, recipe: EmbeddingRecipe, text: string): Float32Array {
  const out = new Float32Array(recipe.dimension);
  const dense = out.subarray(0, wordVectors.dimension);
  const lexical = out.subarray(wordVectors.dimension);
  const lexicalDims = recipe.dimension - wordVectors.dimension;
  const words = tokenizeWords(text);
  let previousStem: string | null = null;
  let contentCount = 0;
  for (const word of words) {
    const rank = wordVectors.indexOf(word);
    const stop = STOPWORDS.has(word);
    const weight = sifWeight(rank < 0 ? wordVectors.size : rank, recipe.sifA);
    if (rank >= 0 && (!stop || recipe.denseStopwords)) wordVectors.addScaled(rank, weight, dense);
    if (stop) continue;
    contentCount += 1;
    const stem = stemWord(word);
    addHashedFeature(lexical, 0, lexicalDims, `u:${stem}`, recipe.unigramWeight * weight);
    if (previousStem !== null) addHashedFeature(lexical, 0, lexicalDims, `b:${previousStem} ${stem}`, recipe.bigramWeight * weight);
    const grams = charNgrams(word, recipe.charNgramSize);
    for (const gram of grams) addHashedFeature(lexical, 0, lexicalDims, `c:${gram}`, (recipe.charNgramWeight * weight) / Math.sqrt(grams.length));
    previousStem = stem;
  }
  if (contentCount === 0) {
    for (const word of words) addHashedFeature(lexical, 0, lexicalDims, `u:${word}`, 1);
    if (words.length === 0) addHashedFeature(lexical, 0, lexicalDims, 'empty', 1);
  }
  normalizeInPlace(dense);
  normalizeInPlace(lexical);
  for (let d = 0; d < dense.length; d += 1) dense[d]! *= Math.sqrt(recipe.denseShare);
  for (let d = 0; d < lexical.length; d += 1) lexical[d]! *= Math.sqrt(1 - recipe.denseShare);
  return normalizeInPlace(out);
}

test('vectors equal the composition worked out word by word, bit for bit, however often a word comes back', () => {
  const recipe = { ...DEFAULT_RECIPE, dimension: 64, removeCommonComponent: false };
  const texts = [
    'I drive a car', 'I drive a car, then the car drives me', 'Automobile, automobile, AUTOMOBILE!',
    'Café déjà vu: naïve résumé', 'the the the', '', '?!', 'Zyxwvut qwerty zyxwvut', 'painting sunrises at dawn',
    'banana drive banana car banana', '日本語のテキスト and 123 numbers',
  ];
  // One composer for every text, so later texts meet words the earlier ones already brought in.
  const shared = createVectorComposer(fakeWordVectors(), recipe);
  for (const text of [...texts, ...texts]) {
    assert.deepEqual(shared.compose(text), composeByDefinition(fakeWordVectors(), recipe, text), text);
  }
});
