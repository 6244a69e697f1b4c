import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { unusedPort } from '../helpers/fake-bridge.js';
import { removeDir, type RunningService, startService } from '../helpers/service-harness.js';

describe('/stats tells unavailability (503) apart from server errors', () => {
  let running: RunningService;
  // No bridge answers: as while it starts, /health is 503.
  before(async () => { running = await startService({ bridge: { url: `http://127.0.0.1:${await unusedPort()}` } }); });
  after(async () => {
    await running.stop();
    removeDir(running.dataDir);
  });

  test('503s count as unavailable_total, not errors_total', async () => {
    assert.equal((await running.api('GET', '/health')).status, 503);
    assert.equal((await running.api('GET', '/health')).status, 503);
    const stats = (await running.api('GET', '/stats')).body;
    assert.equal(stats.unavailable_total, 2);
    assert.equal(stats.errors_total, 0);
  });

  test('positive control: a request that fails inside the service counts in errors_total', async () => {
    const { conversations } = running.controller;
    const count = conversations.count;
    conversations.count = async () => { throw new Error('simulated fault'); };
    try {
      const failed = await running.api('GET', '/api/v1/conversations/count');
      assert.equal(failed.status, 500);
      assert.equal(failed.body.code, 'INTERNAL_ERROR');
      assert.doesNotMatch(failed.text, /simulated fault/, 'the internal message stays in the log');
    } finally {
      conversations.count = count;
    }
    const stats = (await running.api('GET', '/stats')).body;
    assert.equal(stats.errors_total, 1);
    assert.equal(stats.unavailable_total, 2, 'a 500 is not counted as unavailability');
  });
});
