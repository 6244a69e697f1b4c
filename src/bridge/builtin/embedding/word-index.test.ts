import { test } from 'node:test';
import assert from 'node:assert/strict';
import { WordIndex } from './word-index.js';

function built(words: readonly string[], wordsAStep = 1000): { index: WordIndex; yields: number } {
  const steps = WordIndex.build(words.join('\n'), words.length, wordsAStep);
  let yields = 0;
  for (let step = steps.next(); ; step = steps.next()) {
    if (step.done) return { index: step.value, yields };
    yields += 1;
  }
}

test('a word maps to its row; prefixes, extensions and other words do not', () => {
  const words = ['the', 'car', 'cart', 'ca', 'café', 'naïve', '東京', '😀', 'a-b', "don't"];
  const { index } = built(words);
  assert.equal(index.size, words.length);
  words.forEach((word, row) => assert.equal(index.indexOf(word), row, word));
  for (const absent of ['', 'c', 'cars', 'caf', 'cafe', 'The', '東', '\n', 'the\ncar', 'car\n']) assert.equal(index.indexOf(absent), -1, JSON.stringify(absent));
});

test('a word listed twice keeps its first row', () => {
  const { index } = built(['alpha', 'beta', 'alpha', 'gamma', 'beta']);
  assert.equal(index.indexOf('alpha'), 0);
  assert.equal(index.indexOf('beta'), 1);
  assert.equal(index.indexOf('gamma'), 3);
});

test('every one of many words is found at its row, built in steps, as a Map would find it', () => {
  const words = Array.from({ length: 50_000 }, (_, row) => `w${(row * 7919) % 50_000}x${row % 13}`);
  const first = new Map<string, number>();
  words.forEach((word, row) => { if (!first.has(word)) first.set(word, row); });
  const { index, yields } = built(words, 4096);
  assert.equal(yields, Math.floor((words.length - 1) / 4096));
  for (const [word, row] of first) assert.equal(index.indexOf(word), row);
  for (let i = 0; i < 1000; i += 1) assert.equal(index.indexOf(`w${i}x13`), -1);
});

test('an empty list finds nothing', () => {
  const { index } = built([]);
  assert.equal(index.size, 0);
  assert.equal(index.indexOf('anything'), -1);
});
