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
