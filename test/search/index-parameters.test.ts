import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig } from '../../src/config/config.loader.js';
import { openStorage } from '../../src/storage.js';
import { ThreadedVectorIndex } from '../../src/adapters/vector/threaded-vector-index.js';
import { DEFAULT_HNSW_PARAMETERS, explorationFor } from '../../src/adapters/vector/usearch-vector.index.js';
import { removeDir } from '../helpers/service-harness.js';

const DIMENSION = 16;
const COUNT = 300;

/** Deterministic unit vectors, one per key. */
function vectorOf(key: number): Float32Array {
  const vector = new Float32Array(DIMENSION);
  let state = (key + 1) * 2654435761 % 4294967296;
  for (let i = 0; i < DIMENSION; i += 1) {
    state = (state * 1103515245 + 12345) % 2147483648;
    vector[i] = state / 2147483648 - 0.5;
  }
  const norm = Math.hypot(...vector);
  return vector.map((x) => x / norm);
}

const keys = Array.from({ length: COUNT }, (_, i) => i + 1);

describe('HNSW graph parameters', () => {
  let dir: string;
  before(() => { dir = mkdtempSync(join(tmpdir(), 'memsvc-index-params-')); });
  after(() => removeDir(dir));

  test('search.index_* from the environment reach the index thread of the SQLite driver', async () => {
    const config = loadConfig({
      file: join(dir, 'absent.yaml'),
      env: {
        MEMSVC_SEARCH_INDEX_CONNECTIVITY: '8', MEMSVC_SEARCH_INDEX_EXPANSION_ADD: '40', MEMSVC_SEARCH_INDEX_EXPANSION_SEARCH: '50',
        MEMSVC_SEARCH_INDEX_QUANTIZATION: 'f16',
      },
      overrides: { server: { data_dir: join(dir, 'env') } },
    });
    const storage = await openStorage(config);
    const { index, loaded } = storage.openLocalIndex!('test-model', DIMENSION);
    try {
      assert.equal(await loaded, false);
      assert.ok(index instanceof ThreadedVectorIndex);
      assert.deepEqual(await index.graphParameters(), { connectivity: 8, expansionAdd: 40, expansionSearch: 50, quantization: 'f16' });
      const many = Array.from({ length: 2500 }, (_, i) => i + 1);
      await index.add(many, many.map(vectorOf));
      await index.flush();
      assert.equal((await index.search(vectorOf(1234), 1))[0]?.key, 1234);
    } finally {
      await index.close();
      await storage.close();
    }
  });

  test('an index saved in partitions (before one graph) opens empty, its files gone, and takes its vectors again', async () => {
    const indexDir = join(dir, 'partitioned');
    mkdirSync(join(indexDir, 'partitions', '0'), { recursive: true });
    writeFileSync(join(indexDir, 'partitions', 'partitions.json'), JSON.stringify({ model: 'test-model', dimension: DIMENSION, partitions: 32 }));
    mkdirSync(join(indexDir, 'route'));
    writeFileSync(join(indexDir, 'vectors.seed.f32'), Buffer.alloc(64));
    const index = ThreadedVectorIndex.open(indexDir, 'test-model', DIMENSION, DEFAULT_HNSW_PARAMETERS);
    try {
      assert.equal(await index.loaded, false, 'nothing usable was saved: the owner adds the stored vectors again');
      for (const legacy of ['partitions', 'route', 'vectors.seed.f32']) assert.equal(existsSync(join(indexDir, legacy)), false, legacy);
      assert.deepEqual(await index.missing([1, 2]), [1, 2]);
      await index.add(keys, keys.map(vectorOf));
      await index.flush();
      await index.save();
      assert.equal((await index.search(vectorOf(150), 1))[0]?.key, 150);
    } finally {
      await index.close();
    }
  });

  test('the defaults are the measured M 16 / expansion_add 128 / expansion_search 384, i8', () => {
    const search = loadConfig({ file: join(dir, 'absent.yaml'), env: {} }).search;
    assert.deepEqual(
      {
        connectivity: search.index_connectivity, expansionAdd: search.index_expansion_add,
        expansionSearch: search.index_expansion_search, quantization: search.index_quantization,
      },
      DEFAULT_HNSW_PARAMETERS,
    );
    // docs/configuration.md documents these (bench/RESULTS.md, "Vector engines").
    assert.deepEqual(DEFAULT_HNSW_PARAMETERS, { connectivity: 16, expansionAdd: 128, expansionSearch: 384, quantization: 'i8' });
  });

  test('a search explores 2 x sqrt(vectors) candidates, at least expansion_search and at most 4,096', () => {
    assert.equal(explorationFor(10, 384), 384);
    assert.equal(explorationFor(100_000, 384), 633);
    assert.equal(explorationFor(1_000_000, 384), 2000);
    assert.equal(explorationFor(100_000_000, 384), 4096);
    assert.equal(explorationFor(1_000_000, 3000), 3000, 'a larger expansion_search is kept');
  });

  test('an unknown index_quantization is refused at start-up', () => {
    assert.throws(() => loadConfig({ file: join(dir, 'absent.yaml'), env: { MEMSVC_SEARCH_INDEX_QUANTIZATION: 'f8' } }),
      /index_quantization/);
  });

  test('an f16 graph saved before quantization was configurable loads under the i8 default, stays f16, and a cleared graph is i8', async () => {
    const indexDir = join(dir, 'f16-saved');
    const old = ThreadedVectorIndex.open(indexDir, 'test-model', DIMENSION, { ...DEFAULT_HNSW_PARAMETERS, quantization: 'f16' });
    assert.equal(await old.loaded, false);
    await old.add(keys, keys.map(vectorOf));
    await old.flush();
    await old.save();
    await old.close();
    // Files written before this setting existed carry no quantization in their meta.
    const metaFile = join(indexDir, 'vectors.meta.json');
    const { quantization, ...olderMeta } = JSON.parse(readFileSync(metaFile, 'utf8')) as Record<string, unknown>;
    assert.equal(quantization, 'f16');
    writeFileSync(metaFile, JSON.stringify(olderMeta));

    const reopened = ThreadedVectorIndex.open(indexDir, 'test-model', DIMENSION, DEFAULT_HNSW_PARAMETERS);
    try {
      assert.equal(await reopened.loaded, true);
      assert.equal(reopened.size(), COUNT);
      assert.equal((await reopened.graphParameters()).quantization, 'f16');
      for (const key of [1, 150, COUNT]) {
        const [best] = await reopened.search(vectorOf(key), 5);
        assert.equal(best?.key, key, `key ${key} is its own nearest neighbour`);
        assert.ok(best!.score > 0.999, `an f16 graph read as f16 scores a vector against itself ~1, got ${best!.score}`);
      }
      await reopened.clear();
      assert.equal((await reopened.graphParameters()).quantization, 'i8');
      await reopened.add(keys, keys.map(vectorOf));
      for (const key of [1, 150, COUNT]) assert.equal((await reopened.search(vectorOf(key), 5))[0]?.key, key);
    } finally {
      await reopened.close();
    }
  });

  test('a meta file naming an unknown quantization is an unreadable graph: it starts empty and is rebuilt, not a failed index', async () => {
    const indexDir = join(dir, 'odd-meta');
    const first = ThreadedVectorIndex.open(indexDir, 'test-model', DIMENSION, DEFAULT_HNSW_PARAMETERS);
    assert.equal(await first.loaded, false);
    await first.add(keys, keys.map(vectorOf));
    await first.flush();
    await first.save();
    await first.close();
    const metaFile = join(indexDir, 'vectors.meta.json');
    writeFileSync(metaFile, JSON.stringify({ ...JSON.parse(readFileSync(metaFile, 'utf8')), quantization: 'bf16' }));

    const reopened = ThreadedVectorIndex.open(indexDir, 'test-model', DIMENSION, DEFAULT_HNSW_PARAMETERS);
    try {
      assert.equal(await reopened.loaded, false);
      assert.equal(reopened.size(), 0);
      assert.equal((await reopened.graphParameters()).quantization, 'i8');
      await reopened.add(keys, keys.map(vectorOf));
      assert.equal((await reopened.search(vectorOf(150), 1))[0]?.key, 150);
    } finally {
      await reopened.close();
    }
  });

  test('a graph saved with M 32 / 200 (the earlier fixed setting) loads under the defaults, keeps its M, answers and takes new vectors', async () => {
    const indexDir = join(dir, 'saved');
    const old = ThreadedVectorIndex.open(indexDir, 'test-model', DIMENSION, { connectivity: 32, expansionAdd: 200, expansionSearch: 128, quantization: 'f16' });
    assert.equal(await old.loaded, false);
    await old.add(keys, keys.map(vectorOf));
    await old.flush();
    await old.save();
    await old.close();

    const reopened = ThreadedVectorIndex.open(indexDir, 'test-model', DIMENSION, DEFAULT_HNSW_PARAMETERS);
    try {
      assert.equal(await reopened.loaded, true);
      assert.equal(reopened.size(), COUNT);
      assert.deepEqual(await reopened.graphParameters(), { ...DEFAULT_HNSW_PARAMETERS, connectivity: 32, quantization: 'f16' });
      for (const key of [1, 150, COUNT]) {
        const [best] = await reopened.search(vectorOf(key), 5);
        assert.equal(best?.key, key, `key ${key} is its own nearest neighbour`);
      }
      await reopened.add([COUNT + 1], [vectorOf(COUNT + 1)]);
      assert.equal((await reopened.search(vectorOf(COUNT + 1), 1))[0]?.key, COUNT + 1);
      assert.deepEqual(await reopened.missing([1, COUNT + 1, COUNT + 2]), [COUNT + 2]);
    } finally {
      await reopened.close();
    }
  });
});
