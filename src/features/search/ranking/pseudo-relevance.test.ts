import { test } from 'node:test';
import assert from 'node:assert/strict';
import { expansionTerms, rocchioQuery } from './pseudo-relevance.js';

const cosine = (a: Float32Array, b: Float32Array) => {
  let dot = 0; let na = 0; let nb = 0;
  for (let i = 0; i < a.length; i += 1) { dot += a[i]! * b[i]!; na += a[i]! ** 2; nb += b[i]! ** 2; }
  return dot / Math.sqrt(na * nb);
};

test('Rocchio pulls the query towards its feedback hits and keeps unit length', () => {
  const query = Float32Array.from([1, 0, 0]);
  const hit = Float32Array.from([0.6, 0.8, 0]); // shares the query's direction and one it only implies
  const unrelated = Float32Array.from([0, 0, 1]);
  const moved = rocchioQuery(query, [{ vector: hit, score: 1 }], 0.5);
  assert.ok(Math.abs(Math.hypot(...moved) - 1) < 1e-6);
  assert.ok(cosine(moved, hit) > cosine(query, hit));
  assert.ok(Math.abs(cosine(moved, unrelated) - cosine(query, unrelated)) < 1e-9);
  assert.deepEqual([...rocchioQuery(query, [{ vector: hit, score: 1 }], 0)], [...query]);
});

// "Where does Jon train?" - the hits say "gym" and "boxing"; every message carries the speaker's name.
test('RM3 picks words the feedback hits share and the wider candidate list does not', () => {
  const feedback = [
    { text: 'Jon: Boxing at the gym again tonight', score: 1 },
    { text: 'Jon: The gym opens early, boxing class at six', score: 0.8 },
  ];
  const background = [
    ...feedback.map((item) => item.text),
    'Jon: Great to hear from you', 'Jon: Really busy week', 'Gina: Jon, great news!', 'Gina: Really happy for you',
  ];
  const terms = expansionTerms(feedback, background, ['train', 'jon'], 3);
  assert.ok(terms.includes('boxing') && terms.includes('gym'), terms.join());
  for (const common of ['jon', 'great', 'really']) assert.ok(!terms.includes(common), terms.join());
});
