import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { EmbeddingProvider } from '../../ports/embedding-provider.js';
import type { TextEmbedder } from '../../ports/text-embedder.js';
import { inProcessQueryEmbedder } from './query-embedder.js';

const quiet = { info() {}, warn() {}, error() {}, debug() {} };
const vector = (value: number) => Float32Array.from([value, 0]);

function remote(): EmbeddingProvider & { calls: number } {
  return {
    calls: 0,
    async embed(texts) { this.calls += 1; return { model: 'builtin-v', dimension: 2, vectors: texts.map(() => vector(1)) }; },
    async health() { return {}; },
  };
}

const localEmbedder = (model = 'builtin-v'): TextEmbedder => ({ model, dimension: 2, embed: async (texts) => texts.map(() => vector(2)) });

test('questions go to the bridge until the local embedder has loaded, then stay in process', async () => {
  const bridge = remote();
  let loads = 0;
  let finish!: (embedder: TextEmbedder) => void;
  const embedder = inProcessQueryEmbedder({
    remote: bridge, localModel: 'builtin-v', log: quiet,
    loadLocal: () => { loads += 1; return new Promise((resolve) => { finish = resolve; }); },
  });
  assert.deepEqual((await embedder.embedQuery('a', 'builtin-v')).vectors[0], vector(1));
  assert.deepEqual((await embedder.embedQuery('b', 'builtin-v')).vectors[0], vector(1));
  assert.equal(loads, 1, 'one load, however many questions arrive meanwhile');
  finish(localEmbedder());
  await new Promise((resolve) => setImmediate(resolve));
  const local = await embedder.embedQuery('c', 'builtin-v');
  assert.deepEqual(local.vectors[0], vector(2));
  assert.equal(local.model, 'builtin-v');
  assert.equal(bridge.calls, 2);
});

test('an index of another model is always asked through the bridge, and never loads the local embedder', async () => {
  const bridge = remote();
  let loads = 0;
  const embedder = inProcessQueryEmbedder({
    remote: bridge, localModel: 'builtin-v', log: quiet, loadLocal: async () => { loads += 1; return localEmbedder(); },
  });
  for (const text of ['a', 'b', 'c']) assert.deepEqual((await embedder.embedQuery(text, 'nomic-embed-text')).vectors[0], vector(1));
  assert.equal(loads, 0);
  assert.equal(bridge.calls, 3);
});

test('a local embedder that cannot load, or loads another model, leaves every question to the bridge', async () => {
  for (const loadLocal of [async () => { throw new Error('no cache'); }, async () => localEmbedder('builtin-other')]) {
    const bridge = remote();
    let loads = 0;
    const embedder = inProcessQueryEmbedder({ remote: bridge, localModel: 'builtin-v', log: quiet, loadLocal: () => { loads += 1; return loadLocal(); } });
    for (let i = 0; i < 4; i += 1) {
      assert.deepEqual((await embedder.embedQuery('q', 'builtin-v')).vectors[0], vector(1));
      await new Promise((resolve) => setImmediate(resolve));
    }
    assert.equal(loads, 1, 'tried once');
    assert.equal(bridge.calls, 4);
  }
});
