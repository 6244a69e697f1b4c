import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { FILL_TOKENS_PER_MESSAGE } from '../../src/features/context/context.service.js';
import { availableTokens } from '../../src/features/context/context-packing.js';
import { ManualClock } from '../helpers/fakes.js';
import { type RunningService, startService } from '../helpers/service-harness.js';

const NOW = '2026-06-15T12:00:00.000Z';
const minutesAgo = (minutes: number) => new Date(Date.parse(NOW) - minutes * 60_000).toISOString();

/** Recent (and pinned) messages only fill what relevance leaves, so a small budget recalls few of them: the newest. */
describe('context assembly recalls no more filler than the budget can hold', () => {
  let server: RunningService;
  before(async () => {
    // Nothing is embedded (the worker is off), so only the recent messages are recalled: what the bound is about.
    server = await startService({ clock: new ManualClock(NOW), overrides: { embedding_worker: { enabled: false } } });
    const created = await server.api('POST', '/api/v1/conversations', {
      label: 'diary', folder: '/diary',
      messages: Array.from({ length: 120 }, (_, i) => ({ role: 'user', content: `entry number ${i}`, timestamp: minutesAgo(120 - i) })),
    });
    assert.equal(created.status, 201);
  });
  after(() => server.stop());

  test('200 tokens recall the newest 22 recent messages; 4000 tokens recall all 120', async () => {
    const { context } = server.controller;
    const recalled = async (budget: number) => (await context.recall(context.toRequest({ query: 'unrelated words', context_budget: budget, ranking: 'spec' })))
      .map((candidate) => candidate.hit.content);
    const fill = Math.ceil(availableTokens(200) / FILL_TOKENS_PER_MESSAGE);
    assert.equal(fill, 22);
    const small = await recalled(200);
    assert.deepEqual(new Set(small), new Set(Array.from({ length: fill }, (_, i) => `entry number ${119 - i}`)));
    assert.equal((await recalled(4000)).length, 120);
    // What is assembled at 200 tokens is the same as before the bound: the newest entries that fit.
    const assembled = await server.api('POST', '/api/v1/context/assemble', { query: 'unrelated words', context_budget: 200, ranking: 'spec' });
    assert.equal(assembled.status, 200);
    assert.equal((assembled.body as Array<{ content: string }>)[0]!.content, 'entry number 119');
  });
});
