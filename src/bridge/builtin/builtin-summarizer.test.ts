import { test } from 'node:test';
import assert from 'node:assert/strict';
import { countWords, summarizeExtractive } from './builtin-summarizer.js';

const passages = [
  'We met to plan the Q3 launch of the mobile app. The team discussed the release timeline in detail.',
  'Alice said the backend migration to PostgreSQL must finish before the launch. Bob agreed to own the migration and finish it by August 15.',
  'The weather was nice today. Someone brought donuts to the office.',
  'We decided to delay the Android release by two weeks because of crash reports on older devices.',
  'The launch plan depends on the migration and on fixing the Android crash reports. Marketing will prepare the launch announcement.',
  'The team agreed that the launch timeline is tight but achievable if the migration finishes on time.',
];

test('empty input gives an empty summary', () => {
  assert.equal(summarizeExtractive([], 50), '');
  assert.equal(summarizeExtractive(['', '   ', '\n'], 50), '');
});

test('short input is returned whole, in order', () => {
  const summary = summarizeExtractive(['First point here.', 'Second point there.'], 200);
  assert.equal(summary, 'First point here. Second point there.');
});

test('respects the word target: never exceeds it by more than one sentence', () => {
  for (const target of [10, 25, 40, 60]) {
    const summary = summarizeExtractive(passages, target);
    const words = countWords(summary);
    assert.ok(words > 0, `target ${target}: empty summary`);
    // The longest sentence in the input has 23 words.
    assert.ok(words <= target + 23, `target ${target}: got ${words} words`);
  }
});

test('gets reasonably close to the target', () => {
  const summary = summarizeExtractive(passages, 60);
  const words = countWords(summary);
  assert.ok(words >= 40 && words <= 80, `got ${words}`);
});

test('keeps central sentences, drops off-topic ones, keeps original order', () => {
  const summary = summarizeExtractive(passages, 45);
  assert.match(summary, /launch/i);
  assert.doesNotMatch(summary, /donuts/);
  const sentences = passages.join(' ').split(/(?<=\.)\s+/);
  const positions = sentences.filter((s) => summary.includes(s)).map((s) => summary.indexOf(s));
  assert.deepEqual(positions, [...positions].sort((a, b) => a - b));
});

test('redundant repeats are not selected twice', () => {
  const repeated = ['The server crashed at noon.', 'The server crashed at noon!', 'The server crashed at noon.', 'Logs show a memory leak in the cache layer.', 'We will add a memory limit to the cache.'];
  const summary = summarizeExtractive(repeated, 12);
  assert.equal(summary.match(/server crashed/g)?.length ?? 0, summary.includes('server crashed') ? 1 : 0);
});

test('a single long sentence over the target is still returned', () => {
  const long = 'This single sentence keeps going with many words about the migration plan, the database, the deadlines and the people involved in it.';
  const summary = summarizeExtractive([long, 'Another long sentence that also talks about many different things at great length today.'], 5);
  assert.ok(summary.length > 0);
  assert.ok(!summary.includes('. '), 'only one sentence');
});

test('is deterministic', () => {
  assert.equal(summarizeExtractive(passages, 30), summarizeExtractive(passages, 30));
});
