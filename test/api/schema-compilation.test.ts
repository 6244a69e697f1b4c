import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig } from '../../src/config/config.loader.js';
import { buildController } from '../../src/controller.js';
import { buildBridgeApp } from '../../src/bridge/bridge.app.js';
import { FakeEmbeddingProvider } from '../helpers/fakes.js';
import { SHARED_MODEL_CACHE, TEST_API_KEY } from '../helpers/service-harness.js';
import { waitFor } from '../helpers/wait-for.js';

/** A controller on a fresh store, built but not listening, with no embedding worker. */
async function idleController() {
  const dataDir = mkdtempSync(join(tmpdir(), 'memsvc-schemas-'));
  const config = loadConfig({ file: '/nonexistent', env: {}, overrides: {
    server: { data_dir: dataDir }, embedding_worker: { enabled: false },
  } });
  const controller = await buildController({ config, apiKey: TEST_API_KEY, logger: false, embeddingProvider: new FakeEmbeddingProvider() });
  return { controller, dataDir };
}

/**
 * Route validators and serializers (and the MCP tools' validators) compile at first use or once the app listens,
 * not before it can listen (src/http/deferred-compilation.ts). Every one of them must still compile, and a route
 * used before its turn must validate and serialize as it always did.
 */
test('every schema compiles; a route used before the rest are compiled validates and answers as always', async () => {
  const { controller, dataDir } = await idleController();
  try {
    await controller.app.ready();
    const compilation = controller.app.schemaCompilation;
    const atStart = compilation.counts();
    assert.ok(atStart.waiting > 50, `the routes' schemas wait (${atStart.waiting})`);

    const headers = { authorization: `Bearer ${TEST_API_KEY}` };
    const wrongType = await controller.app.inject({ method: 'POST', url: '/api/v1/conversations', headers, payload: { label: 5, messages: [{ role: 'user', content: 'hi' }] } });
    assert.equal(wrongType.statusCode, 400);
    assert.match(wrongType.json().error, /label/);
    const created = await controller.app.inject({ method: 'POST', url: '/api/v1/conversations', headers,
      payload: { label: 'first', folder: '/a', messages: [{ role: 'user', content: 'hello' }] } });
    assert.equal(created.statusCode, 201);
    const read = await controller.app.inject({ method: 'GET', url: `/api/v1/conversations/${created.json().id}/messages`, headers });
    assert.equal(read.statusCode, 200);
    assert.equal(JSON.stringify(read.json()).includes('"content":"hello"'), true, read.body);
    const tool = await controller.app.inject({ method: 'POST', url: '/mcp/tools/memory_search', headers, payload: { limit: 'ten' } });
    assert.equal(tool.statusCode, 400);
    assert.equal(tool.json().success, false);
    const used = compilation.counts();
    assert.ok(used.compiled > atStart.compiled && used.waiting < atStart.waiting, 'the routes used compiled theirs');

    assert.deepEqual(await compilation.compileAll(), [], 'every schema compiles');
    assert.deepEqual(compilation.counts(), { compiled: atStart.compiled + atStart.waiting, waiting: 0 });
  } finally {
    await controller.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
});

test('once the app listens, the schemas compile without any request', async () => {
  const { controller, dataDir } = await idleController();
  try {
    await controller.app.listen({ host: '127.0.0.1', port: 0 });
    const done = await waitFor(() => controller.app.schemaCompilation.counts(), {
      what: 'every schema compiled after listening', until: (counts) => counts.waiting === 0,
    });
    assert.ok(done.compiled > 50, `${done.compiled} compiled`);
  } finally {
    await controller.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
});

test('the bridge\'s schemas compile too: a route used first validates as always, the rest compile after it listens', async () => {
  const base = loadConfig({ file: '/nonexistent', env: {} });
  const bridge = await buildBridgeApp({ ...base.bridge, cacheDir: SHARED_MODEL_CACHE }, { logLevel: 'silent' });
  try {
    await bridge.ready();
    const atStart = bridge.schemaCompilation.counts();
    assert.ok(atStart.waiting > 10, `the bridge's schemas wait (${atStart.waiting})`);
    const refused = await bridge.inject({ method: 'POST', url: '/embed', payload: { texts: 'not a list' } });
    assert.equal(refused.statusCode, 400);
    await bridge.listen({ host: '127.0.0.1', port: 0 });
    await waitFor(() => bridge.schemaCompilation.counts(), { what: 'the bridge\'s schemas compiled', until: (counts) => counts.waiting === 0 });
    assert.equal(bridge.schemaCompilation.counts().compiled, atStart.compiled + atStart.waiting);
  } finally {
    await bridge.close();
  }
});
