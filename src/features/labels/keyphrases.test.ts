import { test } from 'node:test';
import assert from 'node:assert/strict';
import { extractKeyPhrases } from './keyphrases.js';

test('recurring multi-word topics rank first, stop words never appear', () => {
  const text = 'The database migration failed. We retried the database migration with smaller batches. ' +
    'The migration of the database is done; the index rebuild is next. Thanks for the help with the database!';
  const phrases = extractKeyPhrases(text, 3).map((p) => p.phrase);
  assert.equal(phrases[0], 'database migration');
  for (const phrase of phrases) assert.ok(!/\b(the|with|for)\b/.test(phrase), phrase);
});

test('an empty or stop-word-only text has no key phrases', () => {
  assert.deepEqual(extractKeyPhrases(''), []);
  assert.deepEqual(extractKeyPhrases('ok, thanks, yes, it is what it is.'), []);
});

test('a phrase contained in a picked one is not repeated', () => {
  const phrases = extractKeyPhrases('kubernetes cluster upgrade. kubernetes cluster upgrade. kubernetes cluster.', 5)
    .map((p) => p.phrase);
  assert.equal(phrases[0], 'kubernetes cluster upgrade');
  assert.ok(!phrases.includes('kubernetes'));
  assert.ok(!phrases.includes('kubernetes cluster'));
});
