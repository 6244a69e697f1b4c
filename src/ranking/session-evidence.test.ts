import { test } from 'node:test';
import assert from 'node:assert/strict';
import { passSessionEvidence } from './session-evidence.js';

// "What did Anna bake after the hike?": the hike turn matches the question's words; the baking turn of
// the same session shares none with it ("Made sourdough tonight") and scores as low as an unrelated
// turn of another session. Session evidence tells them apart.
const sessions = new Map<number, string>([[1, 'trip'], [2, 'trip'], [3, 'trip'], [10, 'work'], [11, 'work']]);
const sessionOf = (key: number) => sessions.get(key);

test('a weak turn in a session with strong matches overtakes an equally weak turn elsewhere', () => {
  const ranking = [
    { key: 1, score: 1 }, // "We hiked up to the lake on Saturday"
    { key: 2, score: 0.6 }, // "The hike took four hours"
    { key: 11, score: 0.3 }, // unrelated, another session
    { key: 3, score: 0.3 }, // "Made sourdough tonight": the second hop
  ];
  const order = passSessionEvidence(ranking, sessionOf, 0.3).map((item) => item.key);
  assert.deepEqual(order, [1, 2, 3, 11]);
});

test('weight 0 leaves the ranking as it was', () => {
  const ranking = [{ key: 11, score: 0.9 }, { key: 1, score: 0.5 }];
  assert.deepEqual(passSessionEvidence(ranking, sessionOf, 0), ranking);
});

test('scores stay in 0..1 with the best at 1, and keys without a session keep their own score', () => {
  const out = passSessionEvidence([{ key: 1, score: 1 }, { key: 99, score: 0.8 }], sessionOf, 0.5);
  assert.equal(out[0]!.key, 1);
  assert.equal(out[0]!.score, 1);
  assert.ok(Math.abs(out[1]!.score - 0.8 / 1.5) < 1e-9);
});

test('only a session\'s best turns make up its score, so a long session of weak matches does not win', () => {
  const long = new Map<number, string>([[1, 'focused'], [2, 'focused']]);
  for (let key = 100; key < 130; key += 1) long.set(key, 'rambling');
  const ranking = [
    { key: 1, score: 1 }, { key: 2, score: 0.2 },
    ...Array.from({ length: 30 }, (_, i) => ({ key: 100 + i, score: 0.3 })),
  ];
  const out = passSessionEvidence(ranking, (key) => long.get(key), 0.5, 3);
  // focused: 1 + 0.2 = 1.2; rambling: 3 x 0.3 = 0.9. Turn 2 (0.2 + 0.5) overtakes the rambling turns (0.3 + 0.375).
  assert.equal(out[1]!.key, 2);
});
