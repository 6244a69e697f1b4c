import { test } from 'node:test';
import assert from 'node:assert/strict';
import { favourNamedPeriods, mayNamePeriod, periodMatcher, writtenDuring } from './time-mention.js';
import { namedPeriods, parsePeriods } from './period-parsing.js';

const now = new Date('2026-11-23T12:00:00Z');

test('periods down to the month are read, with the day and year when given; coarser ones are not', () => {
  assert.deepEqual(namedPeriods('When did we go camping in June?', now), [{ month: 5 }]);
  assert.deepEqual(namedPeriods('What did Mel paint in July 2023?', now), [{ month: 6, year: 2023 }]);
  assert.deepEqual(namedPeriods('What did Gina find on 1 February, 2023?', now), [{ month: 1, year: 2023, day: 1 }]);
  assert.deepEqual(namedPeriods('What did I cook last week?', now), [{ month: 10, year: 2026, day: 16 }]);
  assert.deepEqual(namedPeriods('Where did John go last year?', now), []);
  assert.deepEqual(namedPeriods('May I ask what Sam said?', now), []);
});

test('a message counts as written during a period up to two weeks after it, in any year when none is named', () => {
  const june = { month: 5 };
  assert.equal(writtenDuring(Date.parse('2023-06-20T10:00:00Z'), june), true);
  assert.equal(writtenDuring(Date.parse('2019-07-10T10:00:00Z'), june), true); // told the week after
  assert.equal(writtenDuring(Date.parse('2023-08-02T10:00:00Z'), june), false);
  assert.equal(writtenDuring(Date.parse('2023-06-20T10:00:00Z'), { month: 5, year: 2024 }), false);
  assert.equal(writtenDuring(Date.parse('2024-01-05T10:00:00Z'), { month: 11 }), true); // December, told in January
  assert.equal(writtenDuring(Date.parse('2023-10-13T18:00:00Z'), { month: 9, year: 2023, day: 13 }, 0), true);
  assert.equal(writtenDuring(Date.parse('2023-10-14T18:00:00Z'), { month: 9, year: 2023, day: 13 }, 0), false);
  assert.equal(periodMatcher(namedPeriods('what did I say about it?', now)), null);
});

// "When did Melanie go camping in June?": two camping stories share every word with the question; only
// the dates tell which one is June's. Full text ranks the October story first.
test('the message written in the named period overtakes one that only shares the words', () => {
  const timestamps = new Map([
    [1, '2023-10-20T14:00:00Z'], // "Melanie: We went camping again, the kids loved the campfire"
    [2, '2023-06-27T14:00:00Z'], // "Melanie: Camping with the family last weekend was great"
    [3, '2023-06-28T14:00:00Z'], // an unrelated message of the same week, scored low
  ]);
  const ranking = [{ key: 1, score: 1 }, { key: 2, score: 0.9 }, { key: 3, score: 0.2 }];
  const out = favourNamedPeriods(namedPeriods('When did Melanie go camping in June?', now), ranking, (key) => timestamps.get(key), 1);
  assert.deepEqual(out.map((item) => item.key), [2, 1, 3]);
  assert.equal(out[0]!.score, 1);
});

test('a query naming no period, or weight 0, leaves the order alone', () => {
  const ranking = [{ key: 1, score: 1 }, { key: 2, score: 0.9 }];
  const timestamp = (key: number) => (key === 2 ? '2023-06-27T14:00:00Z' : '2023-10-20T14:00:00Z');
  assert.deepEqual(favourNamedPeriods(namedPeriods('When did Melanie go camping?', now), ranking, timestamp, 1), ranking);
  assert.deepEqual(favourNamedPeriods(namedPeriods('camping in June', now), ranking, timestamp, 0), ranking);
});

test('the cheap word check before parsing never changes what is read', () => {
  const questions = [
    'When did we go camping in June?', 'What did Mel paint in July 2023?', 'What did Gina find on 1 February, 2023?',
    'What did I cook last week?', 'what happened yesterday', 'notes from this morning', 'the meeting two weeks ago',
    'plans for next month', 'what did we decide on 3/5/2024', 'deploy log 2024-02-29', 'last weekend at the lake',
    'tonight\'s dinner', 'the day before yesterday', 'in five days', 'Sept 14 trip', 'the 4th of July party',
    'a fortnight ago', 'at noon on Friday', 'What did Caroline research?', 'database migration deadlock',
    'how do I speed up slow queries', 'Why did Jon shut down his bank account?', 'What is Melanie\'s favourite book?',
    'kubernetes deployment rollback', 'What are the hobbies of the assistant?', 'Dec 25', 'tomorrow at 5pm',
    'Sept. 14', 'Tues at three', 'thurs', 'two hrs ago', 'in three days', 'a couple of weeks ago', 'over the weekend',
    'mid-June', 'this evening', 'last night', 'right now', 'next quarter', 'in a fortnight', 'earlier this year',
    'a few mins ago', 'three yrs ago', 'last Friday', 'the coming month', 'past decade', 'JANUARY', 'on the 3rd',
    'married in the summer', 'marathon training plan', 'sunrise over the bay',
  ];
  for (const question of questions) {
    assert.deepEqual(namedPeriods(question, now), parsePeriods(question, now), question);
  }
  assert.ok(questions.filter((question) => parsePeriods(question, now).length > 0).length >= 15, 'positive control: most name a period');
});

test('words that only begin like a date word do not send a question to the parser', () => {
  for (const question of ['marathon training plan', 'sunrise over the bay', 'my friends decided', 'married a close friend',
    'simmer the marinade', 'monitor the secrets', 'the minimum satisfies the wedding']) {
    assert.equal(mayNamePeriod(question), false, question);
  }
  for (const question of ['in June', 'three weeks ago', 'Tues', 'on 3/5', 'right now', 'Sept. 14']) assert.equal(mayNamePeriod(question), true, question);
});
