import { test } from 'node:test';
import assert from 'node:assert/strict';
import { estimateTokens } from './token-count.js';

test('one token is four characters, rounded up, counting code points', () => {
  assert.equal(estimateTokens(''), 0);
  assert.equal(estimateTokens('abcd'), 1);
  assert.equal(estimateTokens('abcde'), 2);
  assert.equal(estimateTokens('😀😀😀😀'), 1);
});
