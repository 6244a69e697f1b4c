import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import BetterSqlite3, { type Database } from 'better-sqlite3';
import { newId } from '../../domain/ids.js';
import type { Storage } from '../../ports/storage.js';
import { DATABASE_FILE, openSqliteStorage } from './sqlite-storage.js';

const TEXTS = ['where did you hike', 'the ridge above the lake', 'with my sister', 'we camped twice', 'it rained'];
const WORDS = [...new Set(TEXTS.flatMap((text) => text.split(' ')))];
const NOW = '2026-01-01T00:00:00.000Z';
const POLICY = { maxMessagesPerConversation: 100, sessionGapMs: 30 * 60_000 };
const message = (content: string) => ({ role: 'user' as const, content, timestamp: NOW });

/**
 * A conversation's full-text rows are the same however its messages arrived: created whole (indexed from the texts at
 * hand), imported whole (the same), or created empty and appended to (indexed by reading its messages back).
 */
describe('sqlite full-text rows: created, imported and appended conversations are indexed alike', () => {
  let dir: string;
  let storage: Storage;
  let db: Database;
  const ids = { created: newId(), imported: newId(), appended: newId() };

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'memsvc-fts-index-'));
    storage = openSqliteStorage(dir);
    await storage.conversations.create({ id: ids.created, label: 'a', folder: '/', importanceScore: 5, messages: TEXTS.map(message), now: NOW }, POLICY);
    await storage.archive.importAll([{
      id: ids.imported, label: 'b', folder: '/', status: 'active', importanceScore: 5, wordCount: 0, sessionCount: 1,
      createdAt: NOW, updatedAt: NOW, lastAccessedAt: NOW, lastMessageAt: NOW,
      messages: TEXTS.map((content) => ({ id: null, role: 'user', name: null, content, timestamp: NOW, metadata: null })),
    }], 'skip');
    await storage.conversations.create({ id: ids.appended, label: 'c', folder: '/', importanceScore: 5, messages: [], now: NOW }, POLICY);
    await storage.conversations.appendMessages(ids.appended, TEXTS.slice(0, 2).map(message), NOW, POLICY);
    await storage.conversations.appendMessages(ids.appended, TEXTS.slice(2).map(message), NOW, POLICY);
    db = new BetterSqlite3(join(dir, DATABASE_FILE), { readonly: true });
  });

  after(async () => {
    db.close();
    await storage.close();
    rmSync(dir, { recursive: true, force: true });
  });

  /** Positions (in the conversation) that a column match finds, with FTS5's bm25 over that column. */
  const matches = (conversationId: string, column: 'content' | 'context', word: string) => db.prepare(`
    SELECT m.position, round(bm25(messages_fts), 9) AS score FROM messages_fts JOIN messages m ON m.seq = messages_fts.rowid
    WHERE messages_fts MATCH ? AND m.conversation_id = ? ORDER BY m.position`).all(`${column} : "${word}"`, conversationId) as
    Array<{ position: number; score: number }>;
  const positions = (conversationId: string, column: 'content' | 'context', word: string) =>
    matches(conversationId, column, word).map((row) => row.position);

  test('every word finds the same positions with the same score in each column', () => {
    for (const word of WORDS) {
      for (const column of ['content', 'context'] as const) {
        const created = matches(ids.created, column, word);
        assert.ok(created.length > 0, `${column} : ${word} matches the created conversation`);
        assert.deepEqual(matches(ids.imported, column, word), created, `${column} : ${word} (imported)`);
        assert.deepEqual(matches(ids.appended, column, word), created, `${column} : ${word} (appended)`);
      }
    }
  });

  test("a message's context holds the words of the turns just before and after it, and no others", () => {
    assert.deepEqual(positions(ids.created, 'context', 'sister'), [1, 3]);
    assert.deepEqual(positions(ids.created, 'context', 'hike'), [1]);
    assert.deepEqual(positions(ids.created, 'context', 'rained'), [3]);
  });
});
