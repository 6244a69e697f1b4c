import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { unusedPort } from '../helpers/fake-bridge.js';
import { removeDir, seedModelCache, spawnService, type ServiceProcess } from '../helpers/service-harness.js';
import { waitFor } from '../helpers/wait-for.js';

/** The real processes, as `npm start` runs them: controller plus the supervised bridge child. */
describe('npm start (controller + bridge processes)', () => {
  let dataDir: string;
  let service: ServiceProcess;
  let bridgeUrl: string;
  const api = (method: string, path: string, body?: unknown) => service.api(method, path, body);

  before(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'memsvc-e2e-'));
    seedModelCache(dataDir);
    const bridgePort = await unusedPort();
    bridgeUrl = `http://127.0.0.1:${bridgePort}`;
    service = await spawnService({ dataDir, apiKey: null, env: { MEMSVC_BRIDGE_PORT: String(bridgePort) } });
    await waitFor(() => service.raw('GET', '/health'),
      { what: 'a healthy /health (the bridge child up)', until: (health) => health.status === 200, timeoutMs: 90_000 });
  });

  after(async () => {
    if (service.child.exitCode === null) service.child.kill('SIGKILL');
    removeDir(dataDir);
  });

  test('first start generates an API key: printed once, stored with mode 0600, and required', async () => {
    const key = readFileSync(join(dataDir, 'api_key'), 'utf8').trim();
    service.apiKey = key;
    assert.match(key, /^msk_[A-Za-z0-9_-]{40,}$/);
    assert.equal(statSync(join(dataDir, 'api_key')).mode & 0o777, 0o600);
    assert.ok(service.output().includes(key), 'the key is printed on first start');
    assert.equal((await service.raw('GET', '/api/v1/conversations')).status, 401);
  });

  test('stored messages are embedded by the bridge process and found by meaning', async () => {
    const created = await api('POST', '/api/v1/conversations', {
      label: 'pets', folder: '/home', messages: [{ role: 'user', content: 'Our cat sleeps on the warm laptop keyboard all day.' }],
    });
    assert.equal(created.status, 201);
    await waitFor(() => api('GET', '/api/v1/embeddings/status'), { what: 'the one message embedded and searchable', until: (s) => s.body.searchable && s.body.done === 1, timeoutMs: 90_000 });
    const found = await api('POST', '/api/v1/query', { query: 'kitten napping on a computer', mode: 'semantic', limit: 1 });
    assert.equal(found.body.results[0].conversation_id, created.body.id);
    // /health is cached for a moment: the answer from before the first embedding may still be served.
    const health = await waitFor(() => api('GET', '/health'),
      { what: '/health naming the model', until: (h) => h.body.checks.vector_store.model !== null, timeoutMs: 30_000 });
    assert.equal(health.body.checks.llm_bridge.status, 'ok');
    assert.equal((await fetch(`${bridgeUrl}/health`)).status, 200, 'the bridge runs as its own process');
    assert.equal(health.body.checks.vector_store.model, 'builtin-hybrid-v1');
  });

  test('SIGTERM stops the controller and its bridge', async () => {
    service.child.kill('SIGTERM');
    assert.equal(await service.exited, 0);
    assert.equal(await fetch(`${service.baseUrl}/health`).catch(() => null), null, 'the controller is gone');
    await waitFor(async () => fetch(`${bridgeUrl}/health`).then(() => 'up', () => 'down'), { what: 'the bridge process to be gone', until: (state) => state === 'down' });
  });
});
