import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { ConversationArchive } from '../../ports/conversation-archive.js';
import type { ConversationStore } from '../../ports/conversation-store.js';
import { ExportService } from '../export/export.service.js';
import { AccessRecorder } from './access-recorder.js';
import { ConversationService } from './conversations.service.js';
import { WritesInFlight } from '../../domain/writes-in-flight.js';

test('a write is counted until it settles, whether it succeeds or fails', async () => {
  const writes = new WritesInFlight();
  let release!: () => void;
  const ok = writes.around(() => new Promise<void>((resolve) => { release = resolve; }));
  const failed = writes.around(async () => { throw new Error('refused'); });
  assert.equal(writes.waiting(), 2);
  await assert.rejects(failed, /refused/);
  assert.equal(writes.waiting(), 1);
  release();
  await ok;
  assert.equal(writes.waiting(), 0);
});

test('creates, appends and imports are counted while the store holds them', async () => {
  const held: Array<() => void> = [];
  const hold = <T>(value: T) => new Promise<T>((resolve) => { held.push(() => resolve(value)); });
  const store = {
    create: () => hold({ id: 'c' }),
    appendMessages: () => hold({ messages: [] }),
  } as unknown as ConversationStore;
  const writes = new WritesInFlight();
  const service = new ConversationService({
    store, writes, accesses: new AccessRecorder(async () => undefined), clock: { now: () => new Date('2025-02-01T00:00:00.000Z') },
    sessionGapMs: 0,
    limits: { maxMessageChars: 100, maxMessagesPerConversation: 10, maxPageSize: 10, maxLabelChars: 100, maxFolderChars: 100, maxFolderDepth: 5, maxMetadataBytes: 100 },
  });
  const archive = { importAll: () => hold({ imported: 0, replaced: 0, skipped: 0, messages: 0, renamed: [], removedMessageKeys: [] }) } as
    unknown as ConversationArchive;
  const exporter = new ExportService({
    store, archive, writes, clock: { now: () => new Date('2025-02-01T00:00:00.000Z') }, accessesRecorded: async () => undefined,
    limits: { maxMessageChars: 100, maxMessagesPerConversation: 10, maxLabelChars: 100, maxMetadataBytes: 100, folder: { maxChars: 100, maxDepth: 5 }, sessionGapMs: 0 },
  });
  const created = service.create({ label: 'a', messages: [{ role: 'user', content: 'hello' }] });
  const appended = service.appendMessages('0190a4c2-7d3e-7000-8000-000000000001', [{ role: 'user', content: 'again' }]);
  const imported = exporter.storeImport([], 'skip');
  await new Promise((resolve) => setImmediate(resolve));
  assert.equal(writes.waiting(), 3);
  held.forEach((release) => release());
  await Promise.all([created, appended, imported]);
  assert.equal(writes.waiting(), 0);
});
