import { test } from 'node:test';
import assert from 'node:assert/strict';
import { naturalLanguageQuery, parseFullTextQuery, positiveTerms, type FullTextQuery } from './full-text-query.js';
import { ValidationError } from './errors.js';

const term = (token: string, prefix = false): FullTextQuery => ({ kind: 'term', token, prefix });

test('words, phrases, prefixes and operators parse with NOT > AND > OR precedence', () => {
  assert.deepEqual(parseFullTextQuery('alpha'), term('alpha'));
  assert.deepEqual(parseFullTextQuery('Plan*'), term('plan', true));
  assert.deepEqual(parseFullTextQuery('"Exact  phrase"'), { kind: 'phrase', tokens: ['exact', 'phrase'] });
  assert.deepEqual(parseFullTextQuery('a b OR c'), { kind: 'or', items: [{ kind: 'and', items: [term('a'), term('b')] }, term('c')] });
  assert.deepEqual(parseFullTextQuery('a AND (b OR c)'), { kind: 'and', items: [term('a'), { kind: 'or', items: [term('b'), term('c')] }] });
  assert.deepEqual(parseFullTextQuery('a NOT b'), { kind: 'not', include: term('a'), exclude: term('b') });
  assert.deepEqual(parseFullTextQuery('a AND NOT b'), parseFullTextQuery('a NOT b'));
  // Lower-case operators are words; punctuation inside a word makes it a phrase of its tokens.
  assert.deepEqual(parseFullTextQuery('cats and dogs'), { kind: 'and', items: [term('cats'), term('and'), term('dogs')] });
  assert.deepEqual(parseFullTextQuery('self-acceptance'), { kind: 'phrase', tokens: ['self', 'acceptance'] });
  assert.deepEqual(parseFullTextQuery('café ?'), term('café'));
});

test('errors are 400 INVALID_QUERY naming the 1-based position', () => {
  const cases: Array<[string, RegExp]> = [
    ['', /position 1: .*no words/],
    ['"open phrase', /position 1: unterminated/],
    ['alpha AND', /position 10: expected a word/],
    ['(alpha OR beta', /position 1: missing "\)"/],
    ['alpha)', /position 6: "\)" without/],
    ['NOT alpha', /position 1: NOT needs something before it/],
    ['OR alpha', /position 1: OR needs/],
    ['{content context}: beta', /position 1: "\{" is not part/],
    ['content:beta', /position 8: ":" is not part/],
    ['NEAR(alpha beta)', /position 1: NEAR\(\) is not supported/],
    ['al*pha', /position 3: \* may only end a word/],
    ['"a phrase"*', /position 11: a phrase cannot be a prefix/],
    ['alpha^2', /position 6: "\^"/],
    ['a + + b', /position 3: "\+"/],
    ['alpha -beta', /position 7: to leave words out/],
  ];
  for (const [input, message] of cases) {
    assert.throws(() => parseFullTextQuery(input), (error: unknown) => {
      assert.ok(error instanceof ValidationError, input);
      assert.equal(error.kind, 'invalid_input');
      assert.equal(error.code, 'INVALID_QUERY');
      assert.match(error.message, message, input);
      return true;
    });
  }
});

test('queries past the size limits are refused, not parsed', () => {
  assert.throws(() => parseFullTextQuery('a'.repeat(2001)), /longer than 2000/);
  assert.throws(() => parseFullTextQuery(Array.from({ length: 65 }, (_, i) => `w${i}`).join(' ')), /more than 64 terms/);
  assert.doesNotThrow(() => parseFullTextQuery('('.repeat(200) + 'a' + ')'.repeat(200)));
});

test('a natural-language question becomes an OR of its distinct content words', () => {
  assert.deepEqual(naturalLanguageQuery('When did Caroline go to the LGBTQ support group? Caroline!'), {
    kind: 'or', items: ['caroline', 'go', 'lgbtq', 'support', 'group'].map((token) => term(token)),
  });
  assert.deepEqual(naturalLanguageQuery('painting'), term('painting'));
  assert.equal(naturalLanguageQuery('What did you do?'), null);
  // Syntax characters in a question are just separators.
  assert.deepEqual(positiveTerms(naturalLanguageQuery('content:"x" NEAR(y*)')!).map((t) => t.kind === 'term' && t.token), ['content', 'x', 'near', 'y']);
});
