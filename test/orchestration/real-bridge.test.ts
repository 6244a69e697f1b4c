import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { removeDir, type RunningService, startService } from '../helpers/service-harness.js';

/** Summaries through the real bridge's builtin extractive engine (in process, no network, no model server). */
describe('summaries with the builtin bridge engine', () => {
  let stack: RunningService;
  let dataDir: string;
  const api = (method: string, path: string, body?: unknown) => stack.api(method, path, body);

  before(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'memsvc-orchestration-'));
    stack = await startService({ bridge: 'builtin', dataDir, overrides: { embedding_worker: { enabled: false } } });
  });
  after(async () => {
    await stack.stop();
    removeDir(dataDir);
  });

  test('a daily summary of a long day stays near 200 words; a weekly one near 500', async () => {
    const topics = ['database migration', 'index rebuild', 'deploy pipeline', 'customer report', 'budget review',
      'release notes', 'on-call rota', 'API latency'];
    const messages = [];
    const now = Date.now();
    for (let i = 0; i < 120; i += 1) {
      const topic = topics[i % topics.length];
      messages.push({ role: i % 2 ? 'assistant' : 'user', timestamp: new Date(now - (120 - i) * 60_000 * 5).toISOString(),
        content: `Item ${i}: we discussed the ${topic} in detail and agreed on step ${i} with a clear owner and a deadline. ` +
          `The ${topic} needs follow-up because step ${i} depends on earlier work.` });
    }
    const created = await api('POST', '/api/v1/conversations', { label: 'long day', messages });
    assert.equal(created.status, 201);
    const daily = await api('POST', '/api/v1/summarize', { conversation_id: created.body.id, level: 'daily' });
    assert.equal(daily.status, 200);
    assert.equal(daily.body.model, 'builtin-textrank-v1');
    assert.equal(daily.body.anchored_on, 'now');
    assert.ok(daily.body.word_count >= 150 && daily.body.word_count <= 260, `daily has ${daily.body.word_count} words`);
    const weekly = await api('POST', '/api/v1/summarize', { conversation_id: created.body.id, level: 'weekly' });
    assert.equal(weekly.status, 200);
    assert.ok(weekly.body.word_count > 0 && weekly.body.word_count <= 560, `weekly has ${weekly.body.word_count} words`);
  });
});
