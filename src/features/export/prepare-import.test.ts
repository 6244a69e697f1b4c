import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ExportService, RECORDS_A_STEP, type ExportServiceDeps } from './export.service.js';

/** Checking records needs only the clock and the limits; nothing is stored. */
const service = new ExportService({
  clock: { now: () => new Date('2026-01-01T00:00:00.000Z') },
  limits: {
    maxMessageChars: 10_000, maxMessagesPerConversation: 100, maxLabelChars: 200, maxMetadataBytes: 4096,
    folder: { maxChars: 200, maxDepth: 8 }, sessionGapMs: 30 * 60_000,
  },
} as Partial<ExportServiceDeps> as ExportServiceDeps);

const record = (i: number) => JSON.stringify({
  label: `conversation ${i}`, folder: '/imports',
  messages: [{ role: 'user', content: `question ${i}` }, { role: 'assistant', content: `answer ${i}` }],
});

test('a large import is checked in steps: other work runs between them, and every record comes back in order', async () => {
  const count = RECORDS_A_STEP * 6;
  let turns = 0;
  let immediate = setImmediate(function again() { turns += 1; immediate = setImmediate(again); });
  const prepared = await service.prepareImport(Array.from({ length: count }, (_, i) => record(i)).join('\n'));
  clearImmediate(immediate);
  assert.ok(turns >= 5, `${turns} turns of the event loop while ${count} records were checked`);
  assert.equal(prepared.length, count);
  assert.deepEqual(prepared.map((conversation) => conversation.label), Array.from({ length: count }, (_, i) => `conversation ${i}`));
});

test('a bad record past the first step still refuses the whole import, naming its line', async () => {
  const lines = Array.from({ length: RECORDS_A_STEP * 3 }, (_, i) => record(i));
  lines[RECORDS_A_STEP * 2 + 4] = JSON.stringify({ label: 'no messages', messages: 'none' });
  await assert.rejects(service.prepareImport(lines.join('\n')), new RegExp(`line ${RECORDS_A_STEP * 2 + 5}\\b`));
});
