import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { MessageHit } from '../../domain/search.js';
import { estimateTokens } from '../../domain/token-count.js';
import { renderContext, selectContext, type ContextCandidate } from './context-selection.js';

const NOW = new Date('2026-06-15T12:00:00.000Z');

function candidate(key: number, content: string, overrides: Partial<ContextCandidate> = {}): ContextCandidate {
  const hit: MessageHit = {
    key, messageId: `m${String(key).padStart(3, '0')}`, conversationId: `c${key % 3}`, role: 'user', content,
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
