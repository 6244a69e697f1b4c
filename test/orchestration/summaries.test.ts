import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { FakeBridge } from '../helpers/fake-bridge.js';
import { create } from './orchestration-helpers.js';
import { DAY, HOUR, UNKNOWN_ID } from '../helpers/fixtures.js';
import { ManualClock } from '../helpers/fakes.js';
import { removeDir, type RunningService, startService } from '../helpers/service-harness.js';

const NOW = '2025-03-10T12:00:00.000Z';
const at = (offsetMs: number) => new Date(Date.parse(NOW) + offsetMs).toISOString();

describe('POST /api/v1/summarize', () => {
  let bridge: FakeBridge;
  let server: RunningService;
  const clock = new ManualClock(NOW);

  before(async () => {
    bridge = await new FakeBridge().start();
    server = await startService({ bridge: { url: bridge.url }, clock });
  });
  after(async () => {
    await server.stop();
    await bridge.stop();
    removeDir(server.dataDir);
  });

  const summarize = (body: Record<string, unknown>) => server.api('POST', '/api/v1/summarize', body);

  test('daily covers the last 24 hours, is stored, reused, and regenerated when a message arrives', async () => {
    clock.set(NOW);
    const id = await create(server, { label: 'daily', messages: [
      { role: 'user', content: 'Two days ago we chose Postgres.', timestamp: at(-2 * DAY) },
      { role: 'user', content: 'The migration deadlocked this morning.', timestamp: at(-3 * HOUR) },
      { role: 'assistant', content: 'Run it in smaller batches.', timestamp: at(-2 * HOUR) },
    ] });
    const calls = bridge.summarizeRequests.length;
    const first = await summarize({ conversation_id: id, level: 'daily' });
    assert.equal(first.status, 200);
    assert.equal(first.body.conversation_id, id);
    assert.equal(first.body.level, 'daily');
    assert.match(first.body.summary, /deadlocked/);
    assert.doesNotMatch(first.body.summary, /Postgres/);
    assert.equal(first.body.generated_at, NOW);
    assert.equal(first.body.window_end, NOW);
    assert.equal(first.body.window_start, at(-DAY));
    assert.equal(first.body.anchored_on, 'now');
    assert.equal(first.body.source_count, 2);
    assert.equal(first.body.cached, false);
    assert.equal(first.body.model, 'fake-summarizer-v1');
    assert.equal(bridge.summarizeRequests.length, calls + 1);
    assert.equal(bridge.summarizeRequests.at(-1)!.target_words, 200);

    clock.advance(HOUR);
    const again = await summarize({ conversation_id: id, level: 'daily' });
    assert.equal(again.status, 200);
    assert.equal(again.body.cached, true);
    assert.equal(again.body.generated_at, NOW, 'the stored summary keeps its generation time');
    assert.equal(again.body.summary, first.body.summary);
    assert.equal(bridge.summarizeRequests.length, calls + 1, 'no second bridge call');

    const appended = await server.api('POST', `/api/v1/conversations/${id}/messages`,
      { messages: [{ role: 'user', content: 'Batches of 500 rows fixed it.' }] });
    assert.equal(appended.status, 201);
    const fresh = await summarize({ conversation_id: id, level: 'daily' });
    assert.equal(fresh.body.cached, false);
    assert.equal(fresh.body.source_count, 3);
    assert.match(fresh.body.summary, /Batches of 500/);
    assert.equal(fresh.body.generated_at, at(HOUR));

    const forced = await summarize({ conversation_id: id, level: 'daily', refresh: true });
    assert.equal(forced.body.cached, false);
  });

  test('a conversation that went quiet is summarized over the 24 hours up to its newest message', async () => {
    clock.set(NOW);
    const id = await create(server, { label: 'quiet', messages: [
      { role: 'user', content: 'Last week we planned the Lisbon trip.', timestamp: at(-8 * DAY) },
      { role: 'user', content: 'Yesterday we booked the tram tour.', timestamp: at(-3 * DAY - 2 * HOUR) },
      { role: 'assistant', content: 'The tour starts at nine.', timestamp: at(-3 * DAY) },
    ] });
    const response = await summarize({ conversation_id: id, level: 'daily' });
    assert.equal(response.status, 200);
    assert.equal(response.body.anchored_on, 'newest_message');
    assert.equal(response.body.window_end, at(-3 * DAY));
    assert.equal(response.body.source_count, 2);
    assert.match(response.body.summary, /tram tour/);
    assert.doesNotMatch(response.body.summary, /Lisbon/);
  });

  test('weekly is built from 7 daily summaries and monthly from 4 weekly ones', async () => {
    clock.set(NOW);
    const messages = [];
    for (let day = 0; day < 28; day += 1) {
      messages.push({ role: 'user', content: `Day ${day} note about topic ${day}.`, timestamp: at(-day * DAY - HOUR) });
    }
    const id = await create(server, { label: 'hierarchy', messages: messages.reverse() });
    const before = bridge.summarizeRequests.length;
    const weekly = await summarize({ conversation_id: id, level: 'weekly' });
    assert.equal(weekly.status, 200);
    assert.equal(weekly.body.source_count, 7);
    assert.equal(weekly.body.window_start, at(-7 * DAY));
    const weeklyCalls = bridge.summarizeRequests.slice(before);
    assert.equal(weeklyCalls.length, 8, '7 daily summaries, then the weekly one');
    assert.deepEqual(weeklyCalls.slice(0, 7).map((c) => c.target_words), Array(7).fill(200));
    assert.equal(weeklyCalls[7]!.target_words, 500);
    assert.equal(weeklyCalls[7]!.texts.length, 7, 'the weekly one condenses the 7 daily summaries, oldest first');
    assert.match(weeklyCalls[7]!.texts[0]!, /Day 6 /);
    assert.match(weeklyCalls[7]!.texts[6]!, /Day 0 /);

    const beforeMonthly = bridge.summarizeRequests.length;
    const monthly = await summarize({ conversation_id: id, level: 'monthly' });
    assert.equal(monthly.status, 200);
    assert.equal(monthly.body.source_count, 28);
    assert.equal(monthly.body.window_start, at(-28 * DAY));
    const monthlyCalls = bridge.summarizeRequests.slice(beforeMonthly);
    // The latest week's dailies and weekly are reused: 21 new dailies, 3 new weeklies, 1 monthly.
    assert.equal(monthlyCalls.length, 21 + 3 + 1);
    assert.equal(monthlyCalls.at(-1)!.target_words, 1000);
    assert.equal(monthlyCalls.at(-1)!.texts.length, 4);

    const cached = await summarize({ conversation_id: id, level: 'monthly' });
    assert.equal(cached.body.cached, true);
    assert.equal(bridge.summarizeRequests.length, beforeMonthly + monthlyCalls.length);
  });

  test('an empty conversation gives an empty summary with a note, not an error', async () => {
    const id = await create(server, { label: 'empty' });
    const calls = bridge.summarizeRequests.length;
    for (const level of ['daily', 'weekly', 'monthly']) {
      const response = await summarize({ conversation_id: id, level });
      assert.equal(response.status, 200, level);
      assert.equal(response.body.summary, '');
      assert.equal(response.body.source_count, 0);
      assert.equal(response.body.model, null);
      assert.match(response.body.note, /no messages/);
    }
    assert.equal(bridge.summarizeRequests.length, calls);
  });

  test('a summary request counts as a read of its conversation', async () => {
    clock.set(NOW);
    const id = await create(server, { label: 'read by summary', messages: [{ role: 'user', content: 'Something to sum up.', timestamp: at(-HOUR) }] });
    clock.set(at(HOUR));
    assert.equal((await summarize({ conversation_id: id, level: 'daily' })).status, 200);
    await server.controller.conversations.accessesRecorded();
    assert.equal((await server.controller.store.get(id))!.lastAccessedAt, at(HOUR));
    clock.set(NOW);
  });

  test('bad input is a 400, an unknown conversation a 404, a failing bridge a 503', async () => {
    const id = await create(server, { label: 'errors', messages: [{ role: 'user', content: 'hello there' }] });
    const badLevel = await summarize({ conversation_id: id, level: 'hourly' });
    assert.equal(badLevel.status, 400);
    assert.match(badLevel.body.error, /level must be one of: daily, weekly, monthly/);
    assert.equal((await summarize({ level: 'daily' })).status, 400);
    assert.equal((await summarize({ conversation_id: id })).status, 400);
    assert.equal((await summarize({ conversation_id: id, level: 'daily', extra: 1 })).status, 400);
    assert.equal((await summarize({ conversation_id: 42, level: 'daily' })).status, 400);
    assert.equal((await server.api('POST', '/api/v1/summarize')).status, 400);
    const unknown = await summarize({ conversation_id: UNKNOWN_ID, level: 'daily' });
    assert.equal(unknown.status, 404);
    assert.equal(unknown.body.error, `Conversation not found: ${UNKNOWN_ID}`);
    assert.equal((await summarize({ conversation_id: 'not-a-uuid', level: 'daily' })).status, 404);

    bridge.failSummarizeWith = 500;
    try {
      const failed = await summarize({ conversation_id: id, level: 'daily', refresh: true });
      assert.equal(failed.status, 503);
      assert.equal(failed.body.code, 'UPSTREAM_UNAVAILABLE');
    } finally {
      bridge.failSummarizeWith = null;
    }
  });

  test('summaries go with their conversation', async () => {
    const id = await create(server, { label: 'deleted', messages: [{ role: 'user', content: 'short lived.' }] });
    assert.equal((await summarize({ conversation_id: id, level: 'daily' })).status, 200);
    assert.equal((await server.api('DELETE', `/api/v1/conversations/${id}`)).status, 200);
    assert.equal((await summarize({ conversation_id: id, level: 'daily' })).status, 404);
  });
});
