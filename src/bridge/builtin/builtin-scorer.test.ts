import { test } from 'node:test';
import assert from 'node:assert/strict';
import { scoreImportance } from './builtin-scorer.js';

test('scores are integers in 1..10', () => {
  const texts = ['', 'ok', 'hello', 'We decided to ship on Friday. I will send the report by tomorrow to alice@example.com; it is important. Budget is $5,000?', 'x'.repeat(5000)];
  for (const text of texts) {
    const score = scoreImportance(text);
    assert.ok(Number.isInteger(score) && score >= 1 && score <= 10, `${score} for ${text.slice(0, 20)}`);
  }
});

test('acknowledgements and greetings score 1', () => {
  for (const text of ['ok', 'Thanks!', 'thank you so much :)', 'hi there', 'sounds good.', '  ']) assert.equal(scoreImportance(text), 1, text);
});

test('decisions and deadlines outrank small talk', () => {
  const smallTalk = scoreImportance('The weather is quite nice out there this afternoon.');
  const decision = scoreImportance('We decided to migrate the billing database to PostgreSQL.');
  const deadline = scoreImportance('I will finish the migration by Friday, the deadline is firm.');
  const both = scoreImportance('We agreed that Bob Smith will finish the Acme migration by March 3; this is critical.');
  assert.ok(decision > smallTalk, `${decision} > ${smallTalk}`);
  assert.ok(deadline > smallTalk, `${deadline} > ${smallTalk}`);
  assert.ok(both > decision && both > deadline, `${both}`);
  assert.ok(both >= 9);
});

test('questions, numbers and contact details add weight', () => {
  const base = scoreImportance('The service works fine now');
  assert.ok(scoreImportance('Does the service work fine now?') > base);
  assert.ok(scoreImportance('The service works fine now at 250 ms') > base);
  assert.ok(scoreImportance('The service works fine now, see https://status.example.com') > base);
});

test('is deterministic', () => {
  const text = 'Remember: the API key rotates every 30 days. Contact ops@example.com.';
  assert.equal(scoreImportance(text), scoreImportance(text));
});
