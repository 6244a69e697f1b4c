import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { buildBridgeApp } from '../../src/bridge/bridge.app.js';
import { HttpBridgeClient } from '../../src/adapters/bridge-client/http-bridge.client.js';
import { unusedPort } from '../helpers/fake-bridge.js';
import { bridgeConfig, testEmbedder } from '../bridge/helpers/bridge-test-config.js';
import { removeDir, spawnService, type ServiceProcess } from '../helpers/service-harness.js';

const KEY = 'private-key-0123456789abcdef0123456789abcd';

/** Every file and directory under dir, with its permission bits. */
function modes(dir: string): Array<{ path: string; mode: number; directory: boolean }> {
  const found: Array<{ path: string; mode: number; directory: boolean }> = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    found.push({ path, mode: statSync(path).mode & 0o777, directory: entry.isDirectory() });
    if (entry.isDirectory()) found.push(...modes(path));
  }
  return found;
}

describe('private by default: file modes whatever the umask', () => {
  let service: ServiceProcess;
  let dataDir: string;
  before(async () => {
    dataDir = join(mkdtempSync(join(tmpdir(), 'memsvc-modes-')), 'data');
    // A permissive umask, as a careless service unit might set; no API key, so the service writes its own.
    service = await spawnService({ dataDir, apiKey: null, umask: '000', env: {
      MEMSVC_SERVER_LOG_LEVEL: 'error', MEMSVC_BRIDGE_START: 'false', MEMSVC_BRIDGE_URL: `http://127.0.0.1:${await unusedPort()}`,
      MEMSVC_PROXY_ENABLED: 'true', MEMSVC_PROXY_PORT: String(await unusedPort()),
    } });
    // A write, so the WAL exists.
    service.apiKey = readFileSync(join(dataDir, 'api_key'), 'utf8').trim();
    const created = await service.api('POST', '/api/v1/conversations', { label: 'secret', messages: [{ role: 'user', content: 'my bank pin' }] });
    assert.equal(created.status, 201);
  });
  after(() => {
    service.child.kill('SIGKILL');
    removeDir(join(dataDir, '..'));
  });

  test('data dir and every directory under it 0700; database, WAL, spool and key files 0600', () => {
    assert.equal(statSync(dataDir).mode & 0o777, 0o700);
    const found = modes(dataDir);
    const names = found.map((entry) => entry.path.slice(dataDir.length + 1));
    for (const expected of ['memsvc.db', 'memsvc.db-wal', 'api_key', 'proxy-spool']) assert.ok(names.includes(expected), names.join(', '));
    for (const entry of found) {
      assert.equal(entry.mode, entry.directory ? 0o700 : 0o600, `${entry.path} is ${entry.mode.toString(8)}`);
    }
  });
});

describe('bridge requires the service key on every route but /health', () => {
  let app: FastifyInstance;
  let base: string;
  before(async () => {
    app = await buildBridgeApp(bridgeConfig(), { logLevel: 'silent', apiKey: KEY, loadBuiltinEmbedder: async () => testEmbedder() });
    base = await app.listen({ host: '127.0.0.1', port: 0 });
  });
  after(() => app.close());

  test('/health is public; /embed, /extract, /openapi.json refuse without the key or with a wrong one', async () => {
    assert.equal((await fetch(`${base}/health`)).status, 200);
    for (const path of ['/embed', '/extract']) {
      for (const headers of [{}, { authorization: 'Bearer wrong' }] as Array<Record<string, string>>) {
        const response = await fetch(`${base}${path}`, {
          method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify({ texts: ['x'], text: 'x' }),
        });
        assert.equal(response.status, 401, path);
        assert.equal(((await response.json()) as { code: string }).code, 'UNAUTHORIZED');
      }
    }
    assert.equal((await fetch(`${base}/openapi.json`)).status, 401);
  });

  test('the controller\'s bridge client sends the key', async () => {
    const batch = await new HttpBridgeClient({ url: base, timeoutMs: 5000, apiKey: KEY }).embed(['hello']);
    assert.equal(batch.vectors.length, 1);
    await assert.rejects(new HttpBridgeClient({ url: base, timeoutMs: 5000 }).embed(['hello']), /401/);
  });
});
