import { test } from 'node:test';
import assert from 'node:assert/strict';
import { EMPTY_CONVERSATION, planAppend } from './append-plan.js';

const rules = { maxMessagesPerConversation: 4, sessionGapMs: 30 * 60_000 };
const now = '2026-05-01T12:00:00.000Z';

test('positions continue, words add up, and a long idle gap starts a session', () => {
  const first = planAppend(EMPTY_CONVERSATION, [
    { role: 'user', content: 'hello there', timestamp: '2026-05-01T09:00:00.000Z' },
    { role: 'assistant', content: 'hi', timestamp: '2026-05-01T09:10:00.000Z' },
  ], now, rules);
  assert.deepEqual(first.messages.map((m) => m.position), [0, 1]);
  assert.deepEqual(first.counters, { messageCount: 2, wordCount: 3, sessionCount: 1, lastMessageAt: '2026-05-01T09:10:00.000Z' });
  const second = planAppend(first.counters, [{ role: 'user', content: 'back again' }], now, rules);
  assert.equal(second.messages[0]!.timestamp, now, 'a message without a timestamp gets now');
  assert.equal(second.messages[0]!.position, 2);
  assert.equal(second.counters.sessionCount, 2, '2h50m idle is a new session');
  assert.equal(second.messages[0]!.metadata, null);
});

test('an out-of-order timestamp neither starts a session nor moves lastMessageAt back', () => {
  const plan = planAppend(EMPTY_CONVERSATION, [
    { role: 'user', content: 'a', timestamp: '2026-05-01T10:00:00.000Z' },
    { role: 'user', content: 'b', timestamp: '2026-05-01T08:00:00.000Z' },
  ], now, rules);
  assert.equal(plan.counters.sessionCount, 1);
  assert.equal(plan.counters.lastMessageAt, '2026-05-01T10:00:00.000Z');
});

test('the message limit is enforced before anything is planned', () => {
  const full = { ...EMPTY_CONVERSATION, messageCount: 3 };
  assert.doesNotThrow(() => planAppend(full, [{ role: 'user', content: 'x' }], now, rules));
  assert.throws(() => planAppend(full, [{ role: 'user', content: 'x' }, { role: 'user', content: 'y' }], now, rules),
    (error: { kind: string; code: string; message: string }) =>
      error.kind === 'limit_exceeded' && error.code === 'TOO_MANY_MESSAGES' && /at most 4 messages \(it has 3, 2 more/.test(error.message));
});
