import { test } from 'node:test';
import assert from 'node:assert/strict';
import { contentWords, isStopword, stemWord, tokenizeWords } from './text-tokenizer.js';

test('tokenizeWords lower-cases, strips diacritics and splits at punctuation', () => {
  assert.deepEqual(tokenizeWords("Caroline: I'm at the Café, 2023-05-07!"), ['caroline', 'i', 'm', 'at', 'the', 'cafe', '2023', '05', '07']);
  assert.deepEqual(tokenizeWords('  ...  '), []);
});

test('contentWords drops stopwords and contraction fragments', () => {
  assert.deepEqual(contentWords("Melanie: I didn't paint the sunrise"), ['melanie', 'paint', 'sunrise']);
  assert.ok(isStopword('the'));
  assert.ok(!isStopword('sunrise'));
});

test('stemWord conflates inflections like the FTS5 porter tokenizer', () => {
  assert.equal(stemWord('painting'), stemWord('paints'));
  assert.equal(stemWord('adoption'), 'adopt');
});
