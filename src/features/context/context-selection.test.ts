import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { MessageHit } from '../../domain/search.js';
import { estimateTokens } from '../../domain/token-count.js';
import { inContextOrder, renderContext, selectContext, type ContextCandidate } from './context-selection.js';

const NOW = new Date('2026-06-15T12:00:00.000Z');

function candidate(key: number, content: string, overrides: Partial<ContextCandidate> = {}): ContextCandidate {
  const hit: MessageHit = {
    key, messageId: `m${String(key).padStart(3, '0')}`, conversationId: `c${key % 3}`, role: 'user', name: null, content,
    timestamp: '2026-06-01T00:00:00.000Z', embeddingId: null, metadata: null, label: 'notes', folder: '/work',
    importanceScore: 5, status: 'active', position: key,
  };
  return {
    id: hit.messageId, key, importance: 5, timestamp: hit.timestamp, label: hit.label, keyword: 0, semantic: 0,
    neighbours: [], hit, ...overrides,
  };
}

const base = { now: NOW, preferredLabels: [], includeMetadata: true } as const;

test('messages format: contents within the budget less the reserve, best first', () => {
  const candidates = Array.from({ length: 60 }, (_, i) => candidate(i, 'word '.repeat(10 + i * 7), { keyword: i / 60 }));
  for (const budget of [100, 500, 1000, 4000]) {
    for (const ranking of ['relevance', 'spec'] as const) {
      const selection = selectContext(candidates, { ...base, ranking, budget, format: 'messages' });
      const used = selection.messages.reduce((sum, m) => sum + estimateTokens(m.hit.content), 0);
      assert.equal(used, selection.tokens);
      assert.ok(used <= Math.floor(budget * 0.85), `${ranking} ${budget}`);
      const scores = selection.messages.map((m) => m.score);
      assert.deepEqual(scores, [...scores].sort((a, b) => b - a));
    }
  }
});

test('text format: the whole rendered string, headers and separators included, fits the budget', () => {
  const candidates = Array.from({ length: 80 }, (_, i) => candidate(i, 'x'.repeat(1 + ((i * 37) % 250)), { semantic: (i % 7) / 7 }));
  for (const budget of [100, 300, 1000, 4000]) {
    for (const includeMetadata of [true, false]) {
      const selection = selectContext(candidates, { ...base, ranking: 'relevance', budget, format: 'text', includeMetadata });
      const text = renderContext(selection.messages, includeMetadata);
      assert.ok(estimateTokens(text) <= Math.floor(budget * 0.85), `${budget} ${includeMetadata}`);
      assert.ok(selection.messages.length > 0);
    }
  }
});

test('the same text twice is packed once', () => {
  const selection = selectContext([
    candidate(1, 'The deploy failed.', { keyword: 1 }),
    candidate(2, 'the deploy  failed.', { keyword: 0.9 }),
  ], { ...base, ranking: 'relevance', budget: 1000, format: 'messages' });
  assert.deepEqual(selection.messages.map((m) => m.hit.key), [1]);
});

/** A candidate whose message has other hit fields (conversation, day, author) than the defaults above. */
const withHit = (item: ContextCandidate, hit: Partial<MessageHit>): ContextCandidate => ({ ...item, hit: { ...item.hit, ...hit } });

test('text form: label, folder and date are written once per conversation and day, so the budget holds more turns', () => {
  // Twelve turns of one conversation, 21 tokens each: with a header per turn ([label | folder | timestamp | role],
  // 33 tokens a turn) 289 tokens held 8 of them.
  const turns = Array.from({ length: 12 }, (_, i) => withHit(
    candidate(i, `turn ${i} ${'word '.repeat(14)}`, { keyword: 1 - i / 100 }), { conversationId: 'c-standup' }));
  const selection = selectContext(turns, { ...base, ranking: 'relevance', budget: 340, format: 'text' });
  assert.equal(selection.messages.length, 12);
  const text = renderContext(selection.messages, true);
  assert.equal(text.match(/\[notes \| \/work \| 2026-06-01\]/g)?.length, 1);
  assert.equal(estimateTokens(text), selection.tokens);
  assert.ok(selection.tokens <= selection.capacity);
});

test('text form: the best turn\'s conversation comes first, and each conversation\'s turns read in order', () => {
  const turns = [
    withHit(candidate(7, 'Answer: every second day.', { keyword: 1 }), { conversationId: 'garden' }),
    withHit(candidate(3, 'How often do I water the tomatoes?', { keyword: 0.8 }), { conversationId: 'garden' }),
    withHit(candidate(5, 'The tomatoes are in the greenhouse.', { keyword: 0.9 }), { conversationId: 'house', label: 'home' }),
    withHit(candidate(9, 'Watered them today.', { keyword: 0.7 }),
      { conversationId: 'garden', timestamp: '2026-06-03T08:00:00.000Z' }),
  ];
  const selection = selectContext(turns, { ...base, ranking: 'relevance', budget: 1000, format: 'text' });
  assert.deepEqual(selection.messages.map((m) => m.hit.key), [7, 5, 3, 9], 'selection stays best first');
  assert.equal(renderContext(selection.messages, true), [
    '[notes | /work | 2026-06-01]\nuser: How often do I water the tomatoes?\nuser: Answer: every second day.',
    '[home | /work | 2026-06-01]\nuser: The tomatoes are in the greenhouse.',
    '[notes | /work | 2026-06-03]\nuser: Watered them today.',
  ].join('\n\n'));
  assert.deepEqual(inContextOrder(selection.messages, true).map((m) => m.hit.key), [3, 7, 5, 9]);
  assert.deepEqual(inContextOrder(selection.messages, false).map((m) => m.hit.key), [7, 5, 3, 9]);
});

test('text form: a turn with an author\'s name says who wrote it', () => {
  const named = withHit(candidate(1, 'I painted a sunrise.', { keyword: 1 }), { name: 'Melanie' });
  for (const includeMetadata of [true, false]) {
    const selection = selectContext([named], { ...base, ranking: 'relevance', budget: 200, format: 'text', includeMetadata });
    assert.match(renderContext(selection.messages, includeMetadata), /^(\[.*\]\n)?Melanie \(user\): I painted a sunrise\.$/);
  }
});

test('text form: the string never exceeds the capacity, whatever the conversations, days and names', () => {
  let seed = 11;
  const random = () => { seed = (seed * 1103515245 + 12345) % 2 ** 31; return seed / 2 ** 31; };
  for (let round = 0; round < 100; round += 1) {
    const turns = Array.from({ length: 1 + Math.floor(random() * 60) }, (_, i) => {
      const conversation = Math.floor(random() * 5);
      return withHit(candidate(i, 'é'.repeat(1 + Math.floor(random() * 300)), { semantic: random() }), {
        conversationId: `c${conversation}`, label: conversation % 2 ? 'notes' : 'a much longer label for the header',
        timestamp: `2026-06-0${1 + Math.floor(random() * 3)}T10:00:00.000Z`, name: random() < 0.5 ? null : 'Ann',
      });
    });
    const budget = 100 + Math.floor(random() * 3000);
    for (const includeMetadata of [true, false]) {
      const selection = selectContext(turns, { ...base, ranking: 'relevance', budget, format: 'text', includeMetadata });
      const text = renderContext(selection.messages, includeMetadata);
      assert.equal(estimateTokens(text), selection.tokens);
      assert.ok(selection.tokens <= selection.capacity, `${budget} ${includeMetadata}`);
    }
  }
});
