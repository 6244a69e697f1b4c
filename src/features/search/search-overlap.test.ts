import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { FolderLimits } from '../../domain/folder-path.js';
import type { MessageHit, ScoredKey, SearchFilter } from '../../domain/search.js';
import type { Logger } from '../../ports/logger.js';
import type { MessageSearchReader } from '../../ports/message-search.js';
import type { VectorSearch } from '../../ports/vector-search.js';
import type { VectorIndexHolder } from '../../vector-index/vector-index.holder.js';
import { ContextService, type RecallRankings } from '../context/context.service.js';
import { periodsReadHere } from '../../ranking/period-parsing.js';
import { SearchService } from './search.service.js';

/**
 * Hybrid search and context assembly hand their vector search to the index thread before full text takes the
 * request thread: otherwise the two run one after the other (at a million messages, the graph's ~7 ms after
 * full text's ~10 ms). The fakes record when each side starts its real work.
 */

const silent: Logger = { info() {}, warn() {}, error() {}, debug() {} };
const folderLimits: FolderLimits = { maxChars: 500, maxDepth: 10 };
const hit = (key: number): MessageHit => ({
  key, messageId: `m${key}`, conversationId: 'c1', role: 'user', name: null, content: `message ${key}`, timestamp: '2026-06-01T00:00:00.000Z',
  embeddingId: null, metadata: null, label: 'notes', folder: '/work', importanceScore: 5, status: 'active', position: key,
});

test('hybrid search starts the vector search before it ranks full text', async () => {
  const events: string[] = [];
  // As the real holder does: a few awaits between the call and the hand-off to the index thread.
  const holder = {
    async refresh() { await Promise.resolve(); },
    current: () => ({ index: null, model: { model: 'm', dimension: 2 }, mismatch: null }),
    loading: () => false,
    partial: () => false,
  } as unknown as VectorIndexHolder;
  const vectors: VectorSearch = {
    async nearest(): Promise<ScoredKey[]> {
      events.push('vector search handed off');
      await new Promise((resolve) => setTimeout(resolve, 5));
      return [{ key: 1, score: 0.9 }];
    },
  };
  const reader: MessageSearchReader = {
    async fullText() { events.push('full text'); return [{ key: 2, score: 3 }]; },
    async neighbours() { return new Map(); },
    async hydrate(keys) { return keys.map(hit); },
  };
  const service = new SearchService({
    queries: { async embedQuery() { await Promise.resolve(); return { model: 'm', dimension: 2, vectors: [new Float32Array([1, 0])] }; } },
    holder, vectors, reader, folderLimits, maxResults: 100, defaultMode: 'hybrid', log: silent, periods: periodsReadHere,
  });
  const result = await service.query({ query: 'budget review', limit: 10, offset: 0, mode: 'hybrid' });
  assert.deepEqual(events, ['vector search handed off', 'full text']);
  assert.deepEqual(new Set(result.hits.map((h) => h.key)), new Set([1, 2]), 'both sides still fused');
});

test('context assembly starts semantic recall before full text, pinned and recent recall', async () => {
  const events: string[] = [];
  const rankings: RecallRankings = {
    async semanticRanking(_query: string, _filter: SearchFilter): Promise<ScoredKey[]> {
      await Promise.resolve();
      await Promise.resolve();
      events.push('semantic handed off');
      await new Promise((resolve) => setTimeout(resolve, 5));
      return [{ key: 1, score: 0.8 }];
    },
    async keywordRanking() { events.push('keyword'); return [{ key: 2, score: 1 }]; },
  };
  const service = new ContextService({
    rankings,
    reader: {
      async pinnedMessageKeys() { events.push('pinned'); return []; },
      async recentMessageKeys() { events.push('recent'); return [3]; },
    } as never,
    messages: { async hydrate(keys) { return keys.map(hit); }, async neighbours() { return new Map(); } },
    clock: { now: () => new Date('2026-06-02T00:00:00.000Z') },
    periods: periodsReadHere,
    folderLimits,
    log: silent,
  });
  const candidates = await service.recall(service.toRequest({ query: 'budget review' }));
  assert.deepEqual(events, ['semantic handed off', 'keyword', 'pinned', 'recent']);
  assert.deepEqual(candidates.map((c) => c.key).sort(), [1, 2, 3]);
});
