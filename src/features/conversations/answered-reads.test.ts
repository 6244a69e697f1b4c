import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Conversation } from '../../domain/conversation.js';
import type { ConversationArchive } from '../../ports/conversation-archive.js';
import type { ConversationStore } from '../../ports/conversation-store.js';
import type { PruningReader } from '../../ports/pruning-reader.js';
import { ExportService } from '../export/export.service.js';
import { PruningService } from '../pruning/pruning.service.js';

/** accessesRecorded that settles only when released, and the order in which things happened. */
function heldAccesses() {
  const events: string[] = [];
  let release!: () => void;
  const released = new Promise<void>((resolve) => { release = resolve; });
  const accessesRecorded = async () => { await released; events.push('accesses stored'); };
  return { events, release, accessesRecorded };
}

const clock = { now: () => new Date('2025-02-01T00:00:00.000Z') };

describe('what reads last_accessed waits for the accesses already answered', () => {
  test('a prune dry run reads idle conversations only once they are stored', async () => {
    const { events, release, accessesRecorded } = heldAccesses();
    const reader = { idleConversations: async () => { events.push('idle read'); return { items: [], total: 0, archivable: 0 }; } } as unknown as PruningReader;
    const plan = new PruningService({ conversations: {} as ConversationStore, reader, clock, accessesRecorded }).dryRun();
    await new Promise((resolve) => setImmediate(resolve));
    assert.deepEqual(events, [], 'held');
    release();
    await plan;
    assert.deepEqual(events, ['accesses stored', 'idle read']);
  });

  test('an export reads conversations only once they are stored', async () => {
    const { events, release, accessesRecorded } = heldAccesses();
    const archive = { page: async () => { events.push('page read'); return [] as Conversation[]; } } as unknown as ConversationArchive;
    const exporter = new ExportService({
      store: {} as ConversationStore, archive, clock, accessesRecorded,
      limits: {} as ConstructorParameters<typeof ExportService>[0]['limits'],
    });
    const body = exporter.prepareExport({ format: 'jsonl' }).body[Symbol.asyncIterator]();
    const first = body.next();
    await new Promise((resolve) => setImmediate(resolve));
    assert.deepEqual(events, [], 'held');
    release();
    await first;
    while (!(await body.next()).done) { /* drain */ }
    assert.deepEqual(events, ['accesses stored', 'page read']);
  });
});
