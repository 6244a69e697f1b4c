import { afterEach, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DATABASE_FILE, openSqliteStorage } from '../../src/adapters/sqlite/sqlite-storage.js';
import { waitFor } from '../helpers/wait-for.js';
import { deserializeError, serializeError } from '../../src/adapters/sqlite/sqlite-writer.protocol.js';
import { SqliteWriter } from '../../src/adapters/sqlite/sqlite-writer.js';
import { SqliteCheckpointer } from '../../src/adapters/sqlite/sqlite-checkpointer.js';
import type { ConversationStore } from '../../src/ports/conversation-store.js';
import { DomainError, ErrorCode, LimitExceededError, StorageFullError, ValidationError, isStorageFull } from '../../src/domain/errors.js';
import { newId } from '../../src/domain/ids.js';
import type { ImportedConversation } from '../../src/ports/conversation-archive.js';
import type { Storage } from '../../src/ports/storage.js';

const POLICY = { maxMessagesPerConversation: 50, sessionGapMs: 30 * 60_000 };
const NOW = '2026-05-01T10:00:00.000Z';

function imported(count: number, messages: number): ImportedConversation[] {
  return Array.from({ length: count }, (_, c) => ({
    id: newId(), label: `import ${c}`, folder: '/imported', status: 'active', importanceScore: 5,
    wordCount: messages * 12, sessionCount: 1, createdAt: NOW, updatedAt: NOW, lastAccessedAt: NOW, lastMessageAt: NOW,
    messages: Array.from({ length: messages }, (_, i) => ({
      id: null, role: i % 2 === 0 ? 'user' as const : 'assistant' as const, name: null,
      content: `conversation ${c} message ${i}: the migration of the orders table ran long because of the index rebuild`,
      timestamp: NOW, metadata: null,
    })),
  }));
}

describe('sqlite: writes run on their own thread', () => {
  const dirs: string[] = [];
  const open = () => {
    const dir = mkdtempSync(join(tmpdir(), 'memsvc-writer-'));
    dirs.push(dir);
    return { dir, storage: openSqliteStorage(dir) };
  };
  afterEach(() => {
    for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
  });

  test('a read answers while a large write runs, and sees the store as it was before that write', async () => {
    const { storage } = open();
    try {
      const order: string[] = [];
      const importing = storage.archive.importAll(imported(400, 20), 'skip').then((outcome) => {
        order.push('import');
        return outcome;
      });
      // On the request thread this import would already have run whole (the store is synchronous inside).
      const seen = await storage.conversations.count({});
      order.push('read');
      const outcome = await importing;
      assert.deepEqual(order, ['read', 'import']);
      assert.equal(seen, 0, 'the read saw none of the import: it commits at once or not at all');
      assert.equal(outcome.imported, 400);
      assert.equal(await storage.conversations.count({}), 400, 'once the write answers, reads see it');
    } finally {
      await storage.close();
    }
  });

  test('an error keeps its class and fields across the thread', async () => {
    const { storage } = open();
    try {
      const tooMany = storage.conversations.create({
        id: newId(), label: 'x', folder: '/', importanceScore: 5, now: NOW,
        messages: Array.from({ length: 4 }, () => ({ role: 'user' as const, content: 'hi', timestamp: NOW, metadata: null })),
      }, { ...POLICY, maxMessagesPerConversation: 3 });
      await assert.rejects(tooMany, (error: unknown) => error instanceof LimitExceededError && error instanceof DomainError &&
        error.code === ErrorCode.TOO_MANY_MESSAGES && error.kind === 'limit_exceeded');

      const id = newId();
      const input = { id, label: 'x', folder: '/', importanceScore: 5, now: NOW, messages: [] };
      await storage.conversations.create(input, POLICY);
      await assert.rejects(storage.conversations.create(input, POLICY),
        (error: unknown) => (error as { code?: string }).code === 'SQLITE_CONSTRAINT_PRIMARYKEY');
    } finally {
      await storage.close();
    }
  });

  test('writes sent together are stored together, and one that fails fails alone', async () => {
    const { storage } = open();
    try {
      const taken = newId();
      await storage.conversations.create({ id: taken, label: 'first', folder: '/', importanceScore: 5, now: NOW, messages: [] }, POLICY);
      const ids = Array.from({ length: 8 }, (_, i) => (i === 3 ? taken : newId()));
      const outcomes = await Promise.allSettled(ids.map((id, i) => storage.conversations.create({
        id, label: `burst ${i}`, folder: '/', importanceScore: 5, now: NOW,
        messages: [{ role: 'user', content: `burst message ${i}`, timestamp: NOW, metadata: null }],
      }, POLICY)));
      assert.deepEqual(outcomes.map((outcome) => outcome.status),
        ['fulfilled', 'fulfilled', 'fulfilled', 'rejected', 'fulfilled', 'fulfilled', 'fulfilled', 'fulfilled']);
      assert.equal(((outcomes[3] as PromiseRejectedResult).reason as { code?: string }).code, 'SQLITE_CONSTRAINT_PRIMARYKEY');
      assert.equal(await storage.conversations.count({}), 8, 'the seven others and the first are stored');
      assert.equal((await storage.embeddings.counts()).pending, 7, 'the failed create left no message behind');
      assert.equal((await storage.conversations.get(taken))?.label, 'first');
    } finally {
      await storage.close();
    }
  });

  test('a write that fails half-way leaves nothing of itself, in a group or alone', async () => {
    const { storage } = open();
    try {
      // Four messages against a limit of three: the conversation row is written before the limit is checked.
      const create = (id: string, limit: number) => storage.conversations.create({
        id, label: 'half', folder: '/', importanceScore: 5, now: NOW,
        messages: Array.from({ length: 4 }, (_, i) => ({ role: 'user' as const, content: `m${i}`, timestamp: NOW, metadata: null })),
      }, { ...POLICY, maxMessagesPerConversation: limit });
      const failingAlone = newId();
      await assert.rejects(create(failingAlone, 3), LimitExceededError);
      assert.equal(await storage.conversations.get(failingAlone), null, 'alone: its conversation row was rolled back');

      const ids = Array.from({ length: 6 }, () => newId());
      const outcomes = await Promise.allSettled(ids.map((id, i) => create(id, i === 2 ? 3 : 10)));
      assert.deepEqual(outcomes.map((outcome) => outcome.status),
        ['fulfilled', 'fulfilled', 'rejected', 'fulfilled', 'fulfilled', 'fulfilled']);
      assert.equal(await storage.conversations.get(ids[2]!), null, 'in a group: its conversation row was rolled back');
      assert.equal(await storage.conversations.count({}), 5);
      assert.equal((await storage.embeddings.counts()).pending, 20, 'the five others kept their four messages each');
    } finally {
      await storage.close();
    }
  });

  test('the WAL is copied back into the database file by a thread of its own, well before the writer would', async () => {
    const { dir, storage } = open();
    try {
      const file = join(dir, DATABASE_FILE);
      const before = statSync(file).size;
      // About 1 MB of messages: far below the writer's own checkpoint threshold (10,000 pages, 40 MB).
      await storage.archive.importAll(imported(100, 40), 'skip');
      const after = await waitFor(() => statSync(file).size, {
        what: 'the database file to take in the WAL\'s pages', until: (size) => size > before + 500_000, timeoutMs: 10_000,
      });
      assert.ok(after > before + 500_000);
      assert.equal(await storage.conversations.count({}), 100);
    } finally {
      await storage.close();
    }
  });

  test('writes called before close are all stored', async () => {
    const { dir, storage } = open();
    const creates = Array.from({ length: 50 }, (_, i) => storage.conversations.create({
      id: newId(), label: `c${i}`, folder: '/', importanceScore: 5, now: NOW,
      messages: [{ role: 'user', content: `message ${i}`, timestamp: NOW, metadata: null }],
    }, POLICY));
    await storage.close();
    assert.equal((await Promise.all(creates)).length, 50);
    const reopened: Storage = openSqliteStorage(dir);
    try {
      assert.equal(await reopened.conversations.count({}), 50);
      assert.equal((await reopened.embeddings.counts()).pending, 50);
    } finally {
      await reopened.close();
    }
  });

  test('a writer that cannot open its connection fails every write with the reason', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'memsvc-writer-'));
    dirs.push(dir);
    const writer = SqliteWriter.start(join(dir, 'missing', 'memsvc.db'), {});
    try {
      const store = writer.route('conversations', {} as ConversationStore);
      for (let i = 0; i < 2; i += 1) {
        await assert.rejects(store.touch(newId(), NOW), /directory does not exist/);
      }
    } finally {
      await writer.close();
    }
  });

  // Were the error not wired to onError, nothing would settle; the timeout fails the test even when another
  // handle keeps the process alive (alone it is cancelled at once: the idle thread holds nothing open).
  test('a checkpoint thread that cannot open its connection says why, and closes', { timeout: 20_000 }, async () => {
    const dir = mkdtempSync(join(tmpdir(), 'memsvc-writer-'));
    dirs.push(dir);
    const reasons: string[] = [];
    const reported = new Promise<void>((resolve) => {
      const checkpointer = SqliteCheckpointer.start(join(dir, 'missing', 'memsvc.db'), {}, (reason) => {
        reasons.push(reason);
        void checkpointer.close().then(resolve);
      });
    });
    await reported;
    assert.equal(reasons.length, 1);
    assert.match(reasons[0]!, /directory does not exist/);
  });

  test('serialized errors come back as their own class, with the fields the HTTP layer maps by', () => {
    const validation = deserializeError(serializeError(new ValidationError('bad folder', ErrorCode.INVALID_FOLDER, 'folder')));
    assert.ok(validation instanceof ValidationError);
    assert.equal(validation.message, 'bad folder');
    assert.equal((validation as ValidationError).code, ErrorCode.INVALID_FOLDER);
    assert.equal((validation as ValidationError).field, 'folder');

    const full = deserializeError(serializeError(new StorageFullError()));
    assert.ok(full instanceof StorageFullError);
    assert.equal((full as StorageFullError).retryable, new StorageFullError().retryable);

    const sqliteFull = Object.assign(new Error('database or disk is full'), { code: 'SQLITE_FULL' });
    assert.ok(isStorageFull(deserializeError(serializeError(sqliteFull))));
    assert.equal(deserializeError(serializeError('plain')).message, 'plain');
  });
});
