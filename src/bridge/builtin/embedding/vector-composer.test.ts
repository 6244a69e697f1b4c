import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createVectorComposer, DEFAULT_RECIPE, sifWeight } from './vector-composer.js';
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
