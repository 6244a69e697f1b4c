import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Conversation } from '../../domain/conversation.js';
import type { ConversationStore } from '../../ports/conversation-store.js';
import { AccessRecorder } from './access-recorder.js';
import { ConversationService } from './conversations.service.js';

/** A touch whose writes wait until released, in the order they were asked for. */
function heldTouch() {
  const writes: Array<{ id: string; at: string; release: (error?: Error) => void }> = [];
  const stored = new Map<string, string>();
  const touch = (id: string, at: string) => new Promise<void>((resolve, reject) => {
    writes.push({ id, at, release: (error) => { if (error) { reject(error); return; } stored.set(id, at); resolve(); } });
  });
  return { touch, writes, stored };
}

const tick = () => new Promise((resolve) => setImmediate(resolve));

describe('recording conversation accesses', () => {
  test('accesses go out in rounds: one read again meanwhile waits for the next round with its latest time only', async () => {
    const { touch, writes, stored } = heldTouch();
    const recorder = new AccessRecorder(touch);
    recorder.record('a', 'T1');
    assert.deepEqual(writes.map((w) => [w.id, w.at]), [['a', 'T1']], 'written at once');
    recorder.record('a', 'T2');
    recorder.record('b', 'T3');
    recorder.record('a', 'T4');
    await tick();
    assert.equal(writes.length, 1, 'nothing more while the first round is written');
    let settled = false;
    const done = recorder.settled().then(() => { settled = true; });
    writes[0]!.release();
    await tick();
    assert.deepEqual(writes.slice(1).map((w) => [w.id, w.at]), [['a', 'T4'], ['b', 'T3']]);
    assert.equal(settled, false, 'settled waits for the rounds recorded before it');
    for (const write of writes.slice(1)) write.release();
    await done;
    assert.deepEqual([...stored], [['a', 'T4'], ['b', 'T3']]);
  });

  test('a failed write is reported and dropped, and later accesses are still written', async () => {
    const { touch, writes, stored } = heldTouch();
    const warnings: object[] = [];
    const log = { debug() {}, info() {}, warn(object: object) { warnings.push(object); }, error() {} };
    const recorder = new AccessRecorder(touch, log);
    recorder.record('a', 'T1');
    writes[0]!.release(new Error('disk full'));
    await recorder.settled();
    assert.equal(warnings.length, 1);
    recorder.record('b', 'T2');
    writes[1]!.release();
    await recorder.settled();
    assert.deepEqual([...stored], [['b', 'T2']]);
  });

  test('settled answers at once when nothing is waiting', async () => {
    await new AccessRecorder(async () => undefined).settled();
  });

  test('a read of a conversation answers with the access it records, without waiting for the write', async () => {
    const { touch, writes } = heldTouch();
    const id = '0190a4c2-7d3e-7000-8000-000000000001';
    const conversation = { id, lastAccessedAt: '2025-01-01T00:00:00.000Z' } as Conversation;
    const store = { get: async () => conversation, touch } as unknown as ConversationStore;
    const service = new ConversationService({
      accesses: new AccessRecorder(touch), store, clock: { now: () => new Date('2025-02-01T00:00:00.000Z') }, sessionGapMs: 0,
      limits: { maxMessageChars: 1, maxMessagesPerConversation: 1, maxPageSize: 1, maxLabelChars: 1, maxFolderChars: 1, maxFolderDepth: 1, maxMetadataBytes: 1 },
    });
    const read = await service.get(id);
    assert.equal(read.lastAccessedAt, '2025-02-01T00:00:00.000Z');
    assert.deepEqual(writes.map((w) => [w.id, w.at]), [[id, '2025-02-01T00:00:00.000Z']], 'asked for, still held');
    writes[0]!.release();
    await service.accessesRecorded();
  });
});
