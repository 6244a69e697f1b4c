import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BUILTIN_EMBEDDING_MODEL, createBuiltinEmbedder } from './builtin-embedder.js';

const cosine = (a: Float32Array, b: Float32Array): number => a.reduce((sum, value, i) => sum + value * b[i]!, 0);

test('embed returns one unit 768-d vector per text, in order, deterministically', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'memsvc-embedder-'));
  try {
    const sourcePath = join(dir, 'vectors.json');
    await writeFile(sourcePath, JSON.stringify({ vectors: { the: [1, 0, 0, 1, 0], car: [0, 1, 0, 1, 1], banana: [0, 0, 1, 1, 2] }, unkVector: [0, 0, 0, 0, -1] }));
    const embedder = await createBuiltinEmbedder({ cacheDir: join(dir, 'cache'), sourcePath });
    assert.equal(embedder.model, BUILTIN_EMBEDDING_MODEL);
    assert.equal(embedder.dimension, 768);
    const texts = Array.from({ length: 300 }, (_, i) => `message ${i} about a car`);
    const vectors = await embedder.embed(texts);
    assert.equal(vectors.length, 300);
    for (const vector of vectors) assert.ok(Math.abs(Math.hypot(...vector) - 1) < 1e-5);
    assert.deepEqual((await embedder.embed([texts[7]!]))[0], vectors[7]);
    assert.notDeepEqual(vectors[0], vectors[1]);
    assert.deepEqual(await embedder.embed([]), []);
    assert.equal((await readdir(join(dir, 'cache'))).length, 1);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});

// The only test on the real 300 MB GloVe package. Its ~10 s conversion runs once
// per machine: the cache lives in a fixed temp directory that later runs reuse.
test('with the real GloVe vectors, meaning carries beyond shared words', async () => {
  const embedder = await createBuiltinEmbedder({ cacheDir: join(tmpdir(), 'memsvc-builtin-embedding-test-cache') });
  const [car, automobile, banana] = await embedder.embed(['car', 'automobile', 'banana']);
  assert.ok(cosine(car!, automobile!) > cosine(car!, banana!) + 0.1);
  const [question, answer, unrelated] = await embedder.embed([
    'Which pet does Melanie have?',
    'Melanie: Our dog Luna loves the park.',
    'Melanie: The budget meeting ran late.',
  ]);
  assert.ok(cosine(question!, answer!) > cosine(question!, unrelated!));
});
