import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Worker } from 'node:worker_threads';
import { parsePeriods } from '../../ranking/period-parsing.js';
import { PeriodParsingThread } from './period-parsing-thread.js';

const now = new Date('2026-11-23T12:00:00Z');

function recordingLog() {
  const warnings: string[] = [];
  const log = { warn: (_: object, message?: string) => { warnings.push(message ?? ''); } };
  return { warnings, log: log as unknown as Parameters<typeof PeriodParsingThread.start>[0] };
}

const threadOf = (parsing: PeriodParsingThread) =>
  (parsing as unknown as { thread: { worker: Worker } | null }).thread;

test('reads on its own thread what the parser reads here, relative periods against the given now', async () => {
  const { log, warnings } = recordingLog();
  const parsing = PeriodParsingThread.start(log);
  try {
    const questions = ['When did we go camping in June?', 'What did Mel paint in July 2023?',
      'What did Gina find on 1 February, 2023?', 'What did I cook last week?', 'Where did John go last year?',
      `${'what we planned for the garden and the budget '.repeat(200)} in March`];
    for (const question of questions) {
      assert.deepEqual(await parsing.namedPeriods(question, now), parsePeriods(question, now), question.slice(0, 60));
    }
    assert.deepEqual(await parsing.namedPeriods('What did I cook last week?', new Date('2024-03-10T12:00:00Z')),
      [{ month: 2, year: 2024, day: 3 }], 'a week before the now it was given, not before its own clock');
    assert.deepEqual(warnings, []);
  } finally {
    await parsing.close();
  }
});

test('a question with no date word is answered without asking the thread', async () => {
  const { log } = recordingLog();
  const parsing = PeriodParsingThread.start(log);
  const worker = threadOf(parsing)!.worker;
  await worker.terminate();
  try {
    // The thread is gone: only a question that went to it could start another.
    assert.deepEqual(await parsing.namedPeriods('database migration deadlock', now), []);
    assert.equal(threadOf(parsing)!.worker, worker);
  } finally {
    await parsing.close();
  }
});

test('a thread that ended is started again at the next dated question; none is failed for it', async () => {
  const { log, warnings } = recordingLog();
  const parsing = PeriodParsingThread.start(log);
  try {
    assert.deepEqual(await parsing.namedPeriods('camping in June', now), [{ month: 5 }]);
    const first = threadOf(parsing)!.worker;
    await first.terminate();
    assert.match(warnings.join('\n'), /date-parsing thread ended/);
    assert.deepEqual(await parsing.namedPeriods('what did Mel paint in July 2023?', now), [{ month: 6, year: 2023 }]);
    assert.notEqual(threadOf(parsing)!.worker, first, 'a new thread');
  } finally {
    await parsing.close();
  }
});

test('a question the thread does not answer in time names no period, and says so in the log', async () => {
  const { log, warnings } = recordingLog();
  // 1 ms: the fresh thread is still loading chrono-node.
  const parsing = PeriodParsingThread.start(log, 1);
  try {
    assert.deepEqual(await parsing.namedPeriods('camping in June', now), []);
    assert.match(warnings.join('\n'), /did not answer in time/);
  } finally {
    await parsing.close();
  }
});

test('closed, it ends its thread and names no period', async () => {
  const { log, warnings } = recordingLog();
  const parsing = PeriodParsingThread.start(log);
  assert.deepEqual(await parsing.namedPeriods('camping in June', now), [{ month: 5 }]);
  await parsing.close();
  assert.equal(threadOf(parsing), null);
  assert.deepEqual(await parsing.namedPeriods('camping in June', now), []);
  assert.deepEqual(warnings, [], 'closing is not a failure');
});

test('on demand, it starts no thread until a dated question, then reads it as one started at once', async () => {
  const { log, warnings } = recordingLog();
  const parsing = PeriodParsingThread.onDemand(log);
  try {
    assert.equal(threadOf(parsing), null);
    assert.deepEqual(await parsing.namedPeriods('database migration deadlock', now), []);
    assert.equal(threadOf(parsing), null, 'a question without a date word starts none');
    assert.deepEqual(await parsing.namedPeriods('camping in June', now), [{ month: 5 }]);
    assert.notEqual(threadOf(parsing), null);
    assert.deepEqual(warnings, []);
  } finally {
    await parsing.close();
  }
});
