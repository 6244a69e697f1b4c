import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { FakeBridge, unusedPort } from '../helpers/fake-bridge.js';
import { startService, type RunningService } from '../helpers/service-harness.js';
import { waitFor } from '../helpers/wait-for.js';

/**
 * The worker's own retry is pushed far out (a 60 s poll, so its first backoff
 * is about two minutes): only the bridge coming back can wake it in time.
 */
describe('recovery: the embedding worker resumes when the bridge comes back', () => {
  let port: number;
  let bridge: FakeBridge;
  let running: RunningService;
  before(async () => {
    port = await unusedPort();
    bridge = await new FakeBridge().start(port);
    running = await startService({
      bridge: { url: bridge.url },
      overrides: { embedding_worker: { poll_interval_ms: 60_000, max_backoff_ms: 600_000, bridge_probe_max_ms: 100 } },
    });
  });
  after(async () => {
    await running.stop();
    await bridge.stop();
  });

  const status = async () => (await running.api('GET', '/api/v1/embeddings/status')).body;
  const ingest = async (label: string, count: number) => {
    const ids: string[] = [];
    for (let i = 0; i < count; i++) {
      const created = await running.api('POST', '/api/v1/conversations', {
        label: `${label} ${i}`,
        messages: [{ role: 'user', content: `${label} lighthouse number ${i}` }, { role: 'assistant', content: `noted ${label} ${i}` }],
      });
      assert.equal(created.status, 201);
      ids.push(created.body.id);
    }
    return ids;
  };

  test('work stored while the bridge is down is embedded once it answers again, nothing lost', async () => {
    await ingest('before', 2);
    await waitFor(status, { what: 'the first four messages embedded', until: (s) => s.searchable && s.done === 4 });

    await bridge.stop();
    const during = await ingest('outage', 20);
    // The worker tried, failed and is backing off.
    await waitFor(() => running.controller.worker.status(), { what: 'a failed batch while the bridge is away', until: (w) => w.consecutiveFailures > 0 });
    assert.equal((await status()).pending, 40);

    await bridge.start(port);
    const drained = await waitFor(status, { what: 'the queue drained after the bridge came back', until: (s) => s.searchable, timeoutMs: 30_000 });
    assert.equal(drained.pending, 0);
    assert.equal(drained.failed, 0);
    assert.equal(drained.done, 44, 'every message has its vector');
    assert.equal(drained.indexed, 44, 'and is in the index');
    const stats = await running.api('GET', '/stats');
    assert.equal(stats.body.embeddings_count, 44);

    for (const id of [during[0], during[19]]) {
      const messages = await running.api('GET', `/api/v1/conversations/${id}/messages`);
      assert.deepEqual(messages.body.results.map((m: any) => m.embedding_status), ['done', 'done']);
    }
    const found = await running.api('POST', '/api/v1/query', { query: 'outage lighthouse number 7', mode: 'semantic', limit: 44 });
    assert.equal(found.body.partial ?? false, false);
    assert.ok(found.body.results.some((hit: any) => hit.content === 'outage lighthouse number 7'));
  });
});
