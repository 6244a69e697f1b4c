import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { unusedPort } from '../helpers/fake-bridge.js';
import { eventually, removeDir } from '../helpers/controller-harness.js';

const MAIN = fileURLToPath(new URL('../../src/main.ts', import.meta.url));
const SHARED_CACHE = fileURLToPath(new URL('../../.cache/models', import.meta.url));

/** The real processes, as `npm start` runs them: controller plus the supervised bridge child. */
describe('npm start (controller + bridge processes)', () => {
  let dataDir: string;
  let child: ChildProcess;
  let baseUrl: string;
  let bridgeUrl: string;
  let output = '';
  let key = '';
  const api = async (method: string, path: string, body?: unknown) => {
    const response = await fetch(`${baseUrl}${path}`, {
      method,
      headers: { authorization: `Bearer ${key}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await response.text();
    return { status: response.status, body: text ? JSON.parse(text) : null };
  };

  before(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'memsvc-e2e-'));
    // Reuse the word-vector cache other suites built, when there is one (else the bridge builds it: ~20 s).
    const cached = join(SHARED_CACHE, 'glove-sg-100d.v1.bin');
    if (existsSync(cached)) {
      mkdirSync(join(dataDir, 'cache'), { recursive: true });
      copyFileSync(cached, join(dataDir, 'cache', 'glove-sg-100d.v1.bin'));
    }
    const [port, bridgePort] = [await unusedPort(), await unusedPort()];
    baseUrl = `http://127.0.0.1:${port}`;
    bridgeUrl = `http://127.0.0.1:${bridgePort}`;
    const env: NodeJS.ProcessEnv = { ...process.env, MEMSVC_DATA_DIR: dataDir, MEMSVC_PORT: String(port), MEMSVC_BRIDGE_PORT: String(bridgePort),
      MEMSVC_SERVER_LOG_LEVEL: 'warn', MEMSVC_CONFIG: '/nonexistent' };
    delete env.MEMSVC_API_KEY;
    child = spawn(process.execPath, ['--import', 'tsx', MAIN], { env, stdio: ['ignore', 'pipe', 'pipe'] });
    child.stdout!.on('data', (chunk) => { output += chunk; });
    child.stderr!.on('data', (chunk) => { output += chunk; });
    await eventually(async () => (await fetch(`${baseUrl}/health`).catch(() => null))?.status ?? 0, (status) => status === 200, 90_000);
  });

  after(async () => {
    if (child.exitCode === null) child.kill('SIGKILL');
    removeDir(dataDir);
  });

  test('first start generates an API key: printed once, stored with mode 0600, and required', async () => {
    key = readFileSync(join(dataDir, 'api_key'), 'utf8').trim();
    assert.match(key, /^msk_[A-Za-z0-9_-]{40,}$/);
    assert.equal(statSync(join(dataDir, 'api_key')).mode & 0o777, 0o600);
    assert.ok(output.includes(key), 'the key is printed on first start');
    assert.equal((await fetch(`${baseUrl}/api/v1/conversations`)).status, 401);
  });

  test('stored messages are embedded by the bridge process and found by meaning', async () => {
    const created = await api('POST', '/api/v1/conversations', {
      label: 'pets', folder: '/home', messages: [{ role: 'user', content: 'Our cat sleeps on the warm laptop keyboard all day.' }],
    });
    assert.equal(created.status, 201);
    await eventually(() => api('GET', '/api/v1/embeddings/status'), (s) => s.body.searchable && s.body.done === 1, 90_000);
    const found = await api('POST', '/api/v1/query', { query: 'kitten napping on a computer', mode: 'semantic', limit: 1 });
    assert.equal(found.body.results[0].conversation_id, created.body.id);
    const health = await api('GET', '/health');
    assert.equal(health.body.checks.llm_bridge.status, 'ok');
    assert.equal((await fetch(`${bridgeUrl}/health`)).status, 200, 'the bridge runs as its own process');
    assert.equal(health.body.checks.vector_store.model, 'builtin-hybrid-v1');
  });

  test('SIGTERM stops the controller and its bridge', async () => {
    const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
    child.kill('SIGTERM');
    assert.equal(await exited, 0);
    assert.equal(await fetch(`${baseUrl}/health`).catch(() => null), null, 'the controller is gone');
    await eventually(async () => fetch(`${bridgeUrl}/health`).then(() => 'up', () => 'down'), (state) => state === 'down', 5000);
  });
});
