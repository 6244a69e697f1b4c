import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildBridgeApp } from '../../src/bridge/bridge.app.js';
import { BUILTIN_EMBEDDING_MODEL_EXPECTED } from '../../src/bridge/bridge.wiring.js';
import { bridgeConfig } from './helpers/bridge-test-config.js';

/** The real builtin embedder behind /embed, loaded lazily; skipped while it does not exist yet. */
const embedderUrl = new URL('../../src/bridge/builtin/embedding/builtin-embedder.ts', import.meta.url);
const embedderFile = fileURLToPath(embedderUrl);
const skip = existsSync(embedderFile) ? false : 'src/bridge/builtin/embedding/builtin-embedder.ts does not exist yet';

test('POST /embed with the real builtin embedder', { skip, timeout: 120_000 }, async () => {
  // Shared across runs: the first run builds the word-vector cache (~10-20 s), later runs load it.
  const cacheDir = join(tmpdir(), 'memsvc-bridge-test-embedder-cache');
  const app = await buildBridgeApp({ ...bridgeConfig(), cacheDir }, { logLevel: 'silent' });
  try {
    const before = (await app.inject({ method: 'GET', url: '/health' })).json();
    assert.equal(before.providers.embeddings.loaded, false);

    const res = await app.inject({ method: 'POST', url: '/embed', payload: { texts: ['The cat sat on the mat.', 'A kitten rested on the rug.', 'Quarterly revenue grew by 8 percent.'] } });
    assert.equal(res.statusCode, 200, res.body);
    const body = res.json();
    assert.match(body.model, /^builtin-/);
    assert.equal(body.dimension, 768);
    assert.equal(body.embeddings.length, 3);
    for (const v of body.embeddings as number[][]) {
      assert.equal(v.length, 768);
      assert.ok(Math.abs(Math.hypot(...v) - 1) < 1e-3, 'unit length');
    }
    const after = (await app.inject({ method: 'GET', url: '/health' })).json();
    assert.equal(after.providers.embeddings.loaded, true);
    assert.equal(after.providers.embeddings.model, body.model);
  } finally {
    await app.close();
  }
});

test('/health names the builtin model before it is loaded', { skip }, async () => {
  const { BUILTIN_EMBEDDING_MODEL } = (await import(embedderUrl.href)) as { BUILTIN_EMBEDDING_MODEL: string };
  assert.equal(BUILTIN_EMBEDDING_MODEL_EXPECTED, BUILTIN_EMBEDDING_MODEL);
});

test('the controller embeds questions in process from the bridge cache, bit for bit the vectors /embed answers', { skip, timeout: 120_000 }, async () => {
  const { createBuiltinEmbedder } = await import('../../src/bridge/builtin/embedding/builtin-embedder.js');
  const { inProcessQueryEmbedder } = await import('../../src/adapters/local-embedding/query-embedder.js');
  const cacheDir = join(tmpdir(), 'memsvc-bridge-test-embedder-cache');
  const app = await buildBridgeApp({ ...bridgeConfig(), cacheDir }, { logLevel: 'silent' });
  try {
    const questions = ['When did Caroline go to the LGBTQ support group?', 'what about the deadlock in the migration?', 'Lisbon'];
    const res = await app.inject({ method: 'POST', url: '/embed', payload: { texts: questions, encoding_format: 'base64' } });
    assert.equal(res.statusCode, 200, res.body);
    const fromBridge = (res.json().embeddings_base64 as string[]).map((encoded) => Buffer.from(encoded, 'base64'));
    let remoteCalls = 0;
    const embedder = inProcessQueryEmbedder({
      remote: { embed: async () => { remoteCalls += 1; throw new Error('the bridge is not asked once loaded'); }, health: async () => ({}) },
      localModel: BUILTIN_EMBEDDING_MODEL_EXPECTED,
      loadLocal: () => createBuiltinEmbedder({ cacheDir, cacheOnly: true }),
      log: { info() {}, warn() {}, error() {}, debug() {} },
    });
    // The first question starts the load and goes to the bridge (here: fails); later ones are answered in process.
    await assert.rejects(embedder.embedQuery(questions[0]!, BUILTIN_EMBEDDING_MODEL_EXPECTED));
    let batch;
    for (let tries = 0; !batch && tries < 200; tries += 1) {
      batch = await embedder.embedQuery(questions[0]!, BUILTIN_EMBEDDING_MODEL_EXPECTED).catch(() => undefined);
      if (!batch) await new Promise((resolve) => setTimeout(resolve, 50));
    }
    assert.ok(batch, 'loaded in process');
    const before = remoteCalls;
    for (const [i, question] of questions.entries()) {
      const local = await embedder.embedQuery(question, BUILTIN_EMBEDDING_MODEL_EXPECTED);
      assert.equal(local.model, BUILTIN_EMBEDDING_MODEL_EXPECTED);
      assert.deepEqual(Buffer.from(local.vectors[0]!.buffer, local.vectors[0]!.byteOffset, 768 * 4), fromBridge[i]);
    }
    assert.equal(remoteCalls, before);
  } finally {
    await app.close();
  }
  // Without a cache the controller never converts the 300 MB source itself: it leaves questions to the bridge.
  await assert.rejects(createBuiltinEmbedder({ cacheDir: join(tmpdir(), `memsvc-no-cache-${process.pid}`), cacheOnly: true }), /No usable word-vector cache/);
});
