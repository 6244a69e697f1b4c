import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  DEFAULT_TUNING, labelMatcher, normalizedImportance, queryRelevance, rankCandidates, recency, RECENCY_HALF_LIFE_MS,
  SPEC_WEIGHTS, specScore, type RankingCandidate,
} from './context-ranking.js';

const NOW = new Date('2026-06-15T12:00:00.000Z');
const DAY = 24 * 60 * 60 * 1000;
const ago = (days: number) => new Date(NOW.getTime() - days * DAY).toISOString();

const candidate = (overrides: Partial<RankingCandidate> & { key: number }): RankingCandidate => ({
  id: `m${String(overrides.key).padStart(3, '0')}`, importance: 5, timestamp: ago(100), label: 'misc',
  keyword: 0, semantic: 0, neighbours: [], ...overrides,
});

test('recency halves every 7 days', () => {
  assert.equal(RECENCY_HALF_LIFE_MS, 7 * DAY);
  assert.equal(recency(NOW.toISOString(), NOW), 1);
  assert.ok(Math.abs(recency(ago(7), NOW) - 0.5) < 1e-12);
  assert.ok(Math.abs(recency(ago(14), NOW) - 0.25) < 1e-12);
  assert.ok(Math.abs(recency(ago(3.5), NOW) - Math.SQRT1_2) < 1e-12);
  assert.equal(recency(new Date(NOW.getTime() + DAY).toISOString(), NOW), 1, 'the future counts as now');
  assert.equal(recency('not a date', NOW), 0);
});

test('importance 1..10 maps onto 0..1', () => {
  assert.equal(normalizedImportance(1), 0);
  assert.equal(normalizedImportance(10), 1);
  assert.ok(Math.abs(normalizedImportance(5) - 4 / 9) < 1e-12);
});

test('label match is trimmed and case-insensitive', () => {
  const match = labelMatcher([' Backend ']);
  assert.equal(match('backend'), 1);
  assert.equal(match('BACKEND'), 1);
  assert.equal(match('frontend'), 0);
});

test('the spec formula: 0.5*importance + 0.3*recency + 0.2*label_match', () => {
  assert.deepEqual({ ...SPEC_WEIGHTS }, { importance: 0.5, recency: 0.3, label: 0.2 });
  const context = { now: NOW, preferredLabels: ['backend'] };
  assert.ok(Math.abs(specScore(candidate({ key: 1, importance: 10, timestamp: NOW.toISOString(), label: 'backend' }), context) - 1) < 1e-12);
  assert.equal(specScore(candidate({ key: 2, importance: 1, timestamp: 'never' }), context), 0);
  const mixed = specScore(candidate({ key: 3, importance: 7, timestamp: ago(7), label: 'Backend' }), context);
  assert.ok(Math.abs(mixed - (0.5 * 6 / 9 + 0.3 * 0.5 + 0.2)) < 1e-12);
});

test('spec ranking ignores query relevance entirely', () => {
  const ranked = rankCandidates([
    candidate({ key: 1, keyword: 1, semantic: 1 }),
    candidate({ key: 2, importance: 10 }),
  ], 'spec', { now: NOW, preferredLabels: [] });
  assert.deepEqual(ranked.map((r) => r.candidate.key), [2, 1]);
});

test('the default ranking puts query relevance first; importance, recency and labels break near-ties', () => {
  const ranked = rankCandidates([
    candidate({ key: 1, importance: 10, timestamp: NOW.toISOString() }),
    candidate({ key: 2, keyword: 1, semantic: 0.6 }),
    candidate({ key: 3, keyword: 0.5, semantic: 0.3 }),
  ], 'relevance', { now: NOW, preferredLabels: [] });
  assert.deepEqual(ranked.map((r) => r.candidate.key), [2, 3, 1]);
  const boosted = rankCandidates([
    candidate({ key: 1, keyword: 0.9, semantic: 0.5 }),
    candidate({ key: 2, keyword: 0.9, semantic: 0.5, label: 'Backend' }),
  ], 'relevance', { now: NOW, preferredLabels: ['backend'] });
  assert.equal(boosted[0]!.candidate.key, 2);
  const weights = DEFAULT_TUNING.relevance + DEFAULT_TUNING.importance + DEFAULT_TUNING.recency + DEFAULT_TUNING.label;
  assert.ok(Math.abs(weights - 1) < 1e-12, 'weights sum to 1, so scores stay in 0..1');
});

test('relevance mixes full-text and vectors, and spreads to neighbouring turns', () => {
  const tuning = { ...DEFAULT_TUNING, keywordShare: 0.5, neighbourWeight: 0.5 };
  const relevance = queryRelevance([
    { key: 1, keyword: 1, semantic: 0.4, neighbours: [2] },
    { key: 2, keyword: 0, semantic: 0.2, neighbours: [1, 3] },
    { key: 3, keyword: 0, semantic: 0, neighbours: [2] },
  ], tuning);
  // direct: 1 -> 0.5 + 0.5 * 1 = 1; 2 -> 0.5 * 0.5 = 0.25; 3 -> 0. Propagated: 1.125, 0.75, 0.125; scaled by 1.125.
  assert.ok(Math.abs(relevance.get(1)! - 1) < 1e-12);
  assert.ok(Math.abs(relevance.get(2)! - 0.75 / 1.125) < 1e-12);
  assert.ok(Math.abs(relevance.get(3)! - 0.125 / 1.125) < 1e-12);
});

test('equal scores order by message id, so the ranking is deterministic', () => {
  const candidates = [candidate({ key: 3 }), candidate({ key: 1 }), candidate({ key: 2 })];
  for (const ranking of ['spec', 'relevance'] as const) {
    const ranked = rankCandidates(candidates, ranking, { now: NOW, preferredLabels: [] });
    assert.deepEqual(ranked.map((r) => r.candidate.id), ['m001', 'm002', 'm003']);
    assert.deepEqual(rankCandidates([...candidates].reverse(), ranking, { now: NOW, preferredLabels: [] }), ranked);
  }
});

test('author prior: a question about a person ranks that person\'s unmatched turns above the other speaker\'s', () => {
  // "What does Melanie do to destress?": her answer ("I signed up for a pottery class") shares no word with the
  // question and is barely closer in meaning than the friend's small talk around it.
  const melanie = candidate({ key: 1, semantic: 0.20, namedAuthor: true, session: 's1' });
  const friend = candidate({ key: 2, semantic: 0.34, session: 's1' });
  const matched = candidate({ key: 3, keyword: 1, semantic: 0.6, session: 's2' });
  const order = (authorPrior: number) => rankCandidates([melanie, friend, matched], 'relevance', { now: NOW, preferredLabels: [] },
    { ...DEFAULT_TUNING, authorPrior }).map((ranked) => ranked.candidate.key);
  assert.deepEqual(order(0), [3, 2, 1], 'without the prior the multiplier has little to multiply');
  assert.deepEqual(order(DEFAULT_TUNING.authorPrior), [3, 1, 2]);
  // When the question names no one, the prior changes nothing.
  const unnamed = [{ ...melanie, namedAuthor: false }, friend, matched];
  assert.deepEqual(queryRelevance(unnamed, DEFAULT_TUNING), queryRelevance(unnamed, { ...DEFAULT_TUNING, authorPrior: 0 }));
});
