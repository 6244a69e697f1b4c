import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { FakeBridge } from '../helpers/fake-bridge.js';
import { create } from './orchestration-helpers.js';
import { DAY, UNKNOWN_ID } from '../helpers/fixtures.js';
import { ManualClock } from '../helpers/fakes.js';
import { removeDir, type RunningService, startService } from '../helpers/service-harness.js';

const T0 = '2025-01-01T00:00:00.000Z';
const LONG_FIRST_MESSAGE = 'The first message is long enough that the preview has to cut it: '.repeat(3);

describe('pruning', () => {
  let bridge: FakeBridge;
  let server: RunningService;
  const clock = new ManualClock(T0);
  const ids: Record<string, string> = {};

  before(async () => {
    bridge = await new FakeBridge().start();
    server = await startService({ bridge: { url: bridge.url }, clock });
    const messages = [{ role: 'user', content: LONG_FIRST_MESSAGE }, { role: 'assistant', content: 'Twelve chars' }];
    ids.low = await create(server, { label: 'low', importance_score: 3, messages });
    ids.mid = await create(server, { label: 'mid', importance_score: 5, messages });
    ids.high = await create(server, { label: 'high', importance_score: 7, messages });
    ids.pinned = await create(server, { label: 'pinned', messages });
    assert.equal((await server.api('PUT', `/api/v1/conversations/${ids.pinned}/pin`)).status, 200);
    ids.archived = await create(server, { label: 'archived', importance_score: 1, messages });
    assert.equal((await server.api('PUT', `/api/v1/conversations/${ids.archived}/archive`)).status, 200);
    ids.read = await create(server, { label: 'read later', importance_score: 1, messages });
    ids.appended = await create(server, { label: 'appended later', importance_score: 1, messages });
    ids.empty = await create(server, { label: 'no messages', importance_score: 2 });
    clock.set('2025-01-21T00:00:00.000Z');
    ids.recent = await create(server, { label: 'recent', importance_score: 1, messages });
    clock.set('2025-02-10T00:00:00.000Z');
    assert.equal((await server.api('GET', `/api/v1/conversations/${ids.read}`)).status, 200);
    assert.equal((await server.api('POST', `/api/v1/conversations/${ids.appended}/messages`,
      { messages: [{ role: 'user', content: 'still going' }] })).status, 201);
    clock.set('2025-02-15T00:00:00.000Z');
  });
  after(async () => {
    await server.stop();
    await bridge.stop();
    removeDir(server.dataDir);
  });

  const dryRun = (body?: Record<string, unknown>) => server.api('POST', '/api/v1/prune/dry-run', body);

  test('dry-run suggests idle, active, unpinned conversations: archive at or below the importance threshold, keep above', async () => {
    const response = await dryRun();
    assert.equal(response.status, 200);
    const { suggestions } = response.body;
    const recommendations = Object.fromEntries(suggestions.map((s: any) => [s.conversation_label, s.recommendation]));
    assert.deepEqual(recommendations, { 'no messages': 'archive', low: 'archive', mid: 'archive', high: 'keep' });
    assert.equal(suggestions.at(-1).recommendation, 'keep', 'archive suggestions come first');
    assert.equal(response.body.total, 4);
    assert.equal(response.body.archive_count, 3);
    assert.equal(response.body.threshold_days, 30);
    assert.equal(response.body.importance_threshold, 5);
    assert.equal(response.body.idle_since, '2025-01-16T00:00:00.000Z');
    const low = suggestions.find((s: any) => s.conversation_id === ids.low);
    const chars = LONG_FIRST_MESSAGE.length + 'Twelve chars'.length;
    assert.deepEqual({ ...low, reason: undefined }, {
      conversation_id: ids.low,
      conversation_label: 'low',
      last_accessed: T0,
      last_updated: T0,
      message_count: 2,
      token_estimate: Math.ceil(chars / 4),
      importance_score: 3,
      preview: LONG_FIRST_MESSAGE.slice(0, 100),
      recommendation: 'archive',
      reason: undefined,
    });
    assert.equal(typeof low.reason, 'string');
    const empty = suggestions.find((s: any) => s.conversation_id === ids.empty);
    assert.equal(empty.preview, '');
    assert.equal(empty.token_estimate, 0);
    assert.equal(response.body.estimated_token_savings, 2 * Math.ceil(chars / 4));
  });

  test('thresholds and limit change the answer; nothing is changed by a dry run', async () => {
    const generous = await dryRun({ importance_threshold: 7 });
    assert.ok(generous.body.suggestions.every((s: any) => s.recommendation === 'archive'));
    assert.equal(generous.body.total, 4);
    const strict = await dryRun({ threshold_days: 60 });
    assert.equal(strict.body.total, 0);
    assert.deepEqual(strict.body.suggestions, []);
    const wide = await dryRun({ threshold_days: 0 });
    assert.deepEqual(new Set(wide.body.suggestions.map((s: any) => s.conversation_id)),
      new Set([ids.low, ids.mid, ids.high, ids.empty, ids.read, ids.appended, ids.recent]));
    const limited = await dryRun({ limit: 1 });
    assert.equal(limited.body.suggestions.length, 1);
    assert.equal(limited.body.total, 4);
    const archived = await server.api('GET', '/api/v1/conversations?archived=true');
    assert.deepEqual(archived.body.results.map((r: any) => r.conversation_id), [ids.archived]);
  });

  test('bad dry-run input is a 400', async () => {
    for (const body of [{ threshold_days: -1 }, { threshold_days: 'ten' }, { threshold_days: 1.5 },
      { importance_threshold: 11 }, { importance_threshold: -1 }, { limit: 0 }, { limit: 1001 }, { unknown: true }]) {
      const response = await dryRun(body);
      assert.equal(response.status, 400, JSON.stringify(body));
      assert.equal(typeof response.body.error, 'string');
    }
  });

  test('execute archives all listed ids in one go, or none when one is unknown', async () => {
    const refused = await server.api('POST', '/api/v1/prune/execute', { conversation_ids: [ids.low, UNKNOWN_ID] });
    assert.equal(refused.status, 404);
    assert.equal(refused.body.error, `Conversation not found: ${UNKNOWN_ID}`);
    const stillActive = await dryRun();
    assert.ok(stillActive.body.suggestions.some((s: any) => s.conversation_id === ids.low));

    const malformed = await server.api('POST', '/api/v1/prune/execute', { conversation_ids: [ids.low, 'nope'] });
    assert.equal(malformed.status, 404);
    assert.equal(malformed.body.error, 'Conversation not found: nope');

    const done = await server.api('POST', '/api/v1/prune/execute', { conversation_ids: [ids.low, ids.mid, ids.low] });
    assert.equal(done.status, 200);
    assert.equal(done.text, '', 'empty body');
    const archived = await server.api('GET', '/api/v1/conversations?archived=true&page_size=100');
    assert.deepEqual(new Set(archived.body.results.map((r: any) => r.conversation_id)), new Set([ids.archived, ids.low, ids.mid]));
    const after = await dryRun();
    assert.deepEqual(after.body.suggestions.map((s: any) => s.conversation_id).sort(), [ids.empty, ids.high].sort());
  });

  test('bad execute input is a 400', async () => {
    const tooMany = Array.from({ length: 1001 }, () => UNKNOWN_ID);
    for (const body of [{}, { conversation_ids: [] }, { conversation_ids: 'x' }, { conversation_ids: [1] },
      { conversation_ids: tooMany }, { conversation_ids: [ids.high], extra: 1 }]) {
      const response = await server.api('POST', '/api/v1/prune/execute', body);
      assert.equal(response.status, 400, JSON.stringify(body).slice(0, 80));
    }
    assert.equal((await server.api('POST', '/api/v1/prune/execute')).status, 400);
  });
});
