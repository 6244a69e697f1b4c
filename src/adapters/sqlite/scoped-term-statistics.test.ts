import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { naturalLanguageQuery } from '../../domain/full-text-query.js';
import type { MessageInput } from '../../domain/conversation.js';
import { newId } from '../../domain/ids.js';
import { removeDir } from '../../../test/helpers/service-harness.js';
import { openSqliteStorage } from './sqlite-storage.js';
import { bm25Idf, rescoreForScope } from './scoped-term-statistics.js';

test('idf follows FTS5: rare terms weigh more, terms in over half the rows are floored', () => {
  assert.ok(bm25Idf(1000, 2) > bm25Idf(1000, 200));
  assert.equal(bm25Idf(10, 9), 1e-6);
});

test('each term\'s share of a candidate\'s score is re-weighted by its ratio', () => {
  // Candidates scored store-wide: key 1 by the common term alone (5), key 2 by both (5 + 1), key 3 by the rare one (2).
  const candidates = [{ key: 2, score: 6 }, { key: 1, score: 5 }, { key: 3, score: 2 }];
  const out = rescoreForScope(candidates, [
    { ratio: 0.1, scores: [{ key: 1, score: 5 }, { key: 2, score: 5 }, { key: 99, score: 5 }] }, // common in the scope
  ], 2);
  assert.deepEqual(out.map((item) => item.key), [3, 2]);
  assert.ok(Math.abs(out[1]!.score - 1.5) < 1e-9);
});

// A shared store: Ann's folder, where her name starts every message, and nine other folders where she is
// never named. Store-wide, "ann" is rare and outweighs "kayak"; among her own messages it says nothing.
test('a folder-filtered search ranks by the words that are rare in that folder', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'memsvc-scoped-'));
  const storage = await openSqliteStorage(dir);
  try {
    const says = (content: string): MessageInput => ({ role: 'user', content, timestamp: '2026-05-01T10:00:00.000Z' });
    const create = (folder: string, messages: MessageInput[]) => storage.conversations.create({
      id: newId(), label: 'chat', folder, importanceScore: 5, messages, now: '2026-05-01T10:00:00.000Z',
    }, { maxMessagesPerConversation: 100, sessionGapMs: 30 * 60_000 });
    await create('/ann', [
      says('Ann: Ann here, Ann again: ask Ann anything, Ann says hi'),
      says('Ann: the kayak trip was lovely'),
      ...Array.from({ length: 6 }, (_, i) => says(`Ann: weather note ${i}`)),
    ]);
    for (let folder = 0; folder < 9; folder += 1) {
      await create(`/other${folder}`, Array.from({ length: 8 }, (_, i) => says(`Bob: kayak lessons and weather ${i}`)));
    }
    const first = async (scopedStatistics: boolean) => {
      const ranking = await storage.search.fullText(naturalLanguageQuery('Ann and the kayak?')!, { folder: '/ann' }, 3,
        { contextWeight: 0, scopedStatistics });
      return (await storage.search.hydrate([ranking[0]!.key]))[0]!.content;
    };
    assert.match(await first(false), /^Ann: Ann here/);
    assert.match(await first(true), /kayak trip/);
  } finally {
    await storage.close();
    removeDir(dir);
  }
});
