import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FakeBridge, unusedPort } from '../helpers/fake-bridge.js';
import { removeDir, spawnService, type ServiceProcess } from '../helpers/service-harness.js';
import { waitFor } from '../helpers/wait-for.js';

interface Acked {
  id: string;
  contents: string[];
}

/**
 * The controller as its own process (src/main.ts), killed with SIGKILL while
 * writers ingest and the embedding worker indexes in its thread. After the
 * restart every acknowledged write is there, every message gets its vector,
 * and the saved index is loaded and topped up rather than rebuilt.
 */
describe('kill -9 during ingest, then restart', () => {
  let bridge: FakeBridge;
  let dataDir: string;
  let port: number;
  let service: ServiceProcess | null = null;
  const api = (method: string, path: string, body?: unknown) => service!.api(method, path, body);

  /** Starts the controller process; resolves with the ms from spawn to a 200 from /health (for the log, not asserted). */
  const start = async (): Promise<number> => {
    const started = performance.now();
    service = await spawnService({ dataDir, port, env: {
      MEMSVC_BRIDGE_URL: bridge.url, MEMSVC_BRIDGE_START: 'false', MEMSVC_RATE_LIMIT_ENABLED: 'false',
      MEMSVC_EMBEDDING_WORKER_POLL_INTERVAL_MS: '20', MEMSVC_EMBEDDING_WORKER_BATCH_SIZE: '16',
    } });
    await waitFor(() => api('GET', '/health'), { what: 'a healthy /health', until: (health) => health.status === 200, timeoutMs: 60_000 });
    return Math.round(performance.now() - started);
  };

  /** Writers at concurrency 4 until `stop()` says so; only answers with 201 count as acknowledged. */
  const ingest = (acked: Acked[], prefix: string, shouldStop: () => boolean) =>
    Promise.all(Array.from({ length: 4 }, async (_, writer) => {
      for (let i = 0; !shouldStop(); i += 1) {
        const contents = [0, 1, 2].map((turn) => `${prefix} writer ${writer} note ${i} turn ${turn} topic${(i * 3 + turn) % 97}`);
        const response = await api('POST', '/api/v1/conversations', {
          label: `${prefix}-${writer}-${i}`, folder: `/crash/${prefix}`,
          messages: contents.map((content) => ({ role: 'user', content })),
        }).catch(() => null);
        if (response?.status === 201) acked.push({ id: response.body.id, contents });
        else if (response !== null) throw new Error(`write answered ${response.status}: ${JSON.stringify(response.body)}`);
        else return; // the process is gone
      }
    }));

  before(async () => {
    bridge = await new FakeBridge().start();
    dataDir = mkdtempSync(join(tmpdir(), 'memsvc-crash-'));
    port = await unusedPort();
  });

  after(async () => {
    if (service && service.child.exitCode === null) service.child.kill('SIGKILL');
    await bridge.stop();
    removeDir(dataDir);
  });

  test('every acknowledged write and its vector survive; the saved index is loaded and topped up', async (t) => {
    const acked: Acked[] = [];
    await start();
    // A first batch, indexed and saved by a clean stop, so the crash leaves a saved graph that is behind.
    await ingest(acked, 'saved', () => acked.length >= 40);
    await waitFor(() => api('GET', '/api/v1/embeddings/status'), { what: 'every stored message embedded and searchable', until: (r) => r.body.searchable === true, timeoutMs: 30_000 });
    service!.child.kill('SIGTERM');
    await service!.exited;

    await start();
    let stop = false;
    const writing = ingest(acked, 'crash', () => stop);
    await waitFor(async () => acked.length, { what: '160 acknowledged writes', until: (count) => count >= 160, timeoutMs: 60_000 });
    const midway = (await api('GET', '/api/v1/embeddings/status')).body;
    service!.child.kill('SIGKILL');
    stop = true;
    await writing;
    await service!.exited;

    const restartMs = await start();
    t.diagnostic(`restart after kill -9: healthy in ${restartMs} ms (${acked.length} conversations acknowledged; ` +
      `at the kill ${midway.done} messages embedded, ${midway.indexed} indexed)`);

    for (const conversation of acked) {
      const messages = await api('GET', `/api/v1/conversations/${conversation.id}/messages`);
      assert.equal(messages.status, 200, `acknowledged conversation ${conversation.id} is there`);
      assert.deepEqual(messages.body.results.map((m: { content: string }) => m.content), conversation.contents);
    }
    const status = await waitFor(() => api('GET', '/api/v1/embeddings/status'), { what: 'every stored message embedded and searchable', until: (r) => r.body.searchable === true, timeoutMs: 60_000 });
    const total = acked.length * 3;
    // Writes in flight at the kill may have committed without their answer reaching the client (at most one per writer).
    assert.ok(status.body.done >= total && status.body.done <= total + 4 * 3,
      `every acknowledged message has its vector: ${status.body.done} embedded for ${total} acknowledged`);
    assert.equal(status.body.pending, 0);
    assert.equal(status.body.failed, 0);
    assert.equal(status.body.indexed, status.body.done, 'and is in the index');
    assert.equal(status.body.index_catch_up.loaded_saved, true, 'the saved graph was loaded, not rebuilt');
    assert.ok(status.body.index_catch_up.added < status.body.done, 'only the vectors the saved graph lacked were added');

    // The last acknowledged conversation is found by meaning, among every stored message.
    const last = acked[acked.length - 1]!;
    const found = await api('POST', '/api/v1/query', { query: last.contents[1], mode: 'semantic', limit: 3 });
    assert.equal(found.status, 200);
    assert.equal(found.body.partial, undefined);
    assert.ok(found.body.results.some((hit: { content: string }) => hit.content === last.contents[1]), service!.output());
  });
});
