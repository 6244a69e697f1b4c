import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MemsvcError } from '../../client/client-errors.js';
import type { MemsvcClient } from '../../client/memsvc-client.js';
import { importFiles } from './import.command.js';

interface Call { labels: string[]; batch?: string; after?: string }

/**
 * A client standing in for the service's answers, with its sequencing rule (the real exchange is in test/cli and
 * test/orchestration/import-sequence.test.ts): here, to give the answer a live service gives only in a race.
 */
function fakeClient(answer: (call: Call, attempt: number) => Error | null): { client: MemsvcClient; calls: Call[] } {
  const calls: Call[] = [];
  const attempts = new Map<string, number>();
  const stored = new Set<string>();
  const client = {
    import: async (records: unknown[], _onConflict: string, sequence: { batch?: string; after?: string } = {}) => {
      const call: Call = { labels: records.map((r) => (r as { label: string }).label), ...sequence };
      calls.push(call);
      const attempt = (attempts.get(call.labels[0]!) ?? 0) + 1;
      attempts.set(call.labels[0]!, attempt);
      await new Promise((resolve) => setTimeout(resolve, 5));
      // The service's rule: a batch whose predecessor was not stored is refused, nothing of it stored.
      if (call.after !== undefined && !stored.has(call.after)) throw new MemsvcError(409, 'OUT_OF_SEQUENCE', `${call.after} was not stored`);
      const error = answer(call, attempt);
      if (error) throw error;
      if (call.batch !== undefined) stored.add(call.batch);
      return { imported: records.length, replaced: 0, skipped: 0, messages: records.length, renamed: [] };
    },
  } as unknown as MemsvcClient;
  return { client, calls };
}

describe('importFiles', () => {
  const dir = mkdtempSync(join(tmpdir(), 'memsvc-import-'));
  const file = join(dir, 'records.jsonl');
  writeFileSync(file, Array.from({ length: 8 }, (_, i) => JSON.stringify({ label: `r${i}`, messages: [] })).join('\n') + '\n');

  test('sends each batch naming the one in flight before it', async () => {
    const { client, calls } = fakeClient(() => null);
    const totals = await importFiles(client, [file], { onConflict: 'skip', batchSize: 2 });
    assert.equal(totals.imported, 8);
    assert.deepEqual(calls.map((call) => call.labels[0]), ['r0', 'r2', 'r4', 'r6']);
    assert.equal(calls[0]!.after, undefined);
    for (let i = 1; i < calls.length; i += 1) {
      assert.equal(calls[i]!.after, calls[i - 1]!.batch, 'follows the batch still in flight');
      assert.notEqual(calls[i]!.batch, calls[i - 1]!.batch);
    }
  });

  test('a batch answered OUT_OF_SEQUENCE goes again once the one before is stored, and the rest one at a time', async () => {
    // The second batch's first attempt comes back out of sequence (its predecessor was retried meanwhile, or another
    // replica took it); nothing of it was stored.
    const { client, calls } = fakeClient((call, attempt) => (call.labels[0] === 'r2' && attempt === 1
      ? new MemsvcError(409, 'OUT_OF_SEQUENCE', 'Import batch x, which this one follows, is unknown to this service') : null));
    const totals = await importFiles(client, [file], { onConflict: 'skip', batchSize: 2 });
    assert.equal(totals.imported, 8, 'every record once');
    const order = calls.map((call) => call.labels[0]);
    assert.deepEqual(order.slice(-3), ['r2', 'r4', 'r6'], 'sent again before the batches after it');
    const again = calls.filter((call) => call.labels[0] === 'r2')[1]!;
    assert.equal(again.after, undefined, 'everything before it was stored');
    for (const call of calls.slice(order.lastIndexOf('r2') + 1)) assert.equal(call.after, undefined, 'one at a time from then on');
  });

  test('any other refusal stops the import at that batch', async () => {
    const { client } = fakeClient((call) => (call.labels[0] === 'r4' ? new MemsvcError(400, 'VALIDATION_ERROR', 'line 5: bad') : null));
    await assert.rejects(importFiles(client, [file], { onConflict: 'skip', batchSize: 2 }),
      /records from line 5 on were refused \(4 conversations imported before\): line 5: bad/);
    rmSync(dir, { recursive: true, force: true });
  });
});
