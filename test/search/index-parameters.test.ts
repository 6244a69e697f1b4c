import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig } from '../../src/config/config.loader.js';
import { openStorage } from '../../src/storage.js';
import { ThreadedVectorIndex } from '../../src/adapters/vector/threaded-vector-index.js';
import type { VectorIndex } from '../../src/ports/vector-index.js';
import { DEFAULT_HNSW_PARAMETERS } from '../../src/adapters/vector/usearch-vector.index.js';
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
        MEMSVC_SEARCH_INDEX_CONNECTIVITY: '8', MEMSVC_SEARCH_INDEX_PARTITION_CONNECTIVITY: '12',
        MEMSVC_SEARCH_INDEX_EXPANSION_ADD: '40', MEMSVC_SEARCH_INDEX_EXPANSION_SEARCH: '50', MEMSVC_SEARCH_INDEX_PARTITION_EXPANSION: '20',
        MEMSVC_SEARCH_INDEX_QUANTIZATION: 'f16', MEMSVC_SEARCH_INDEX_PARTITIONS: '4', MEMSVC_SEARCH_INDEX_PROBES: '2',
        MEMSVC_SEARCH_INDEX_PROJECTION_ENERGY: '0.9', MEMSVC_SEARCH_INDEX_SEARCH_THREADS: '1',
      },
      overrides: { server: { data_dir: join(dir, 'env') } },
    });
    const storage = await openStorage(config);
    const { index, loaded } = storage.openLocalIndex!('test-model', DIMENSION);
    try {
      assert.equal(await loaded, false);
      assert.ok(index instanceof ThreadedVectorIndex);
      // An empty index is one graph until it has 4 x 512 vectors to learn its partitions from.
      assert.deepEqual(await index.graphParameters(),
        { connectivity: 8, partitionConnectivity: 12, expansionAdd: 40, expansionSearch: 50, partitionExpansion: 20, quantization: 'f16', partitions: 1, probes: 2, projectionEnergy: 0.9, searchThreads: 1 });
      // Once it has them, the partition graphs are built with the partitions' M.
      const many = Array.from({ length: 4 * 512 + 100 }, (_, i) => i + 1);
      await index.add(many, many.map(vectorOf));
      await index.flush();
      assert.deepEqual(await index.graphParameters(),
        { connectivity: 12, partitionConnectivity: 12, expansionAdd: 40, expansionSearch: 50, partitionExpansion: 20, quantization: 'f16', partitions: 4, probes: 2, projectionEnergy: 0.9, searchThreads: 1 });
      assert.equal((await index.search(vectorOf(1234), 1))[0]?.key, 1234);
    } finally {
      await index.close();
      await storage.close();
    }
  });

  test('search.index_projection_energy: the index thread\'s partitions hold projected vectors, saved and read back after a restart', async () => {
    const wide = 64;
    // Vectors of 64 floats that mix 12 fixed directions: most of their energy lies in those 12.
    const next = (seed: number) => { let state = seed; return () => { state = (state * 1103515245 + 12345) % 2147483648; return state / 2147483648 - 0.5; }; };
    const directions = Array.from({ length: 12 }, (_, d) => Float32Array.from({ length: wide }, next(d + 101)));
    const wideVectorOf = (key: number) => {
      const weight = next(key * 7919 + 1);
      const vector = new Float32Array(wide);
      directions.forEach((direction, d) => { const w = (d === key % 6 ? 2 : 0) + weight(); direction.forEach((x, i) => { vector[i]! += w * x; }); });
      const norm = Math.hypot(...vector);
      return vector.map((x) => x / norm);
    };
    const config = loadConfig({
      file: join(dir, 'absent.yaml'),
      env: { MEMSVC_SEARCH_INDEX_PARTITIONS: '4', MEMSVC_SEARCH_INDEX_PROBES: '2', MEMSVC_SEARCH_INDEX_PROJECTION_ENERGY: '0.95' },
      overrides: { server: { data_dir: join(dir, 'projected') } },
    });
    const many = Array.from({ length: 4 * 512 + 200 }, (_, i) => i + 1);
    // Partition graphs insert on one thread: with two, usearch left a vector or two of these unreachable in most builds.
    const unfoundBySelf = async (index: VectorIndex) =>
      (await Promise.all(many.map(async (key) => ((await index.search(wideVectorOf(key), 1))[0]?.key === key ? null : key))))
        .filter((key) => key !== null);
    const storage = await openStorage(config);
    const first = storage.openLocalIndex!('test-model', wide).index;
    try {
      await first.add(many, many.map(wideVectorOf));
      await first.flush();
      await first.save();
      assert.deepEqual(await unfoundBySelf(first), [], 'every vector is found by a search for itself');
    } finally {
      await first.close();
    }
    const meta = JSON.parse(readFileSync(join(dir, 'projected', 'vectors', 'partitions', 'partitions.json'), 'utf8')) as { projection: number };
    assert.equal(meta.projection, 32, 'the partitions hold 32 of the 64 dimensions');
    const { index: reopened, loaded } = storage.openLocalIndex!('test-model', wide);
    try {
      assert.equal(await loaded, true);
      assert.equal(reopened.size(), many.length);
      assert.deepEqual(await unfoundBySelf(reopened), [], 'each vector is found again after the restart');
    } finally {
      await reopened.close();
      await storage.close();
    }
  });

  test('the defaults are the measured M 64 (one graph) / 24 (partitions) / expansion_add 40 / expansion_search 384 / partition expansion 48, i8, 32 partitions, 6 probes, projections keeping 0.95 of the energy, two search threads', () => {
    const search = loadConfig({ file: join(dir, 'absent.yaml'), env: {} }).search;
    assert.deepEqual(
      {
        connectivity: search.index_connectivity, partitionConnectivity: search.index_partition_connectivity,
        expansionAdd: search.index_expansion_add,
        expansionSearch: search.index_expansion_search, partitionExpansion: search.index_partition_expansion, quantization: search.index_quantization,
        partitions: search.index_partitions, probes: search.index_probes, projectionEnergy: search.index_projection_energy,
        searchThreads: search.index_search_threads,
      },
      DEFAULT_HNSW_PARAMETERS,
    );
    assert.equal(DEFAULT_HNSW_PARAMETERS.quantization, 'i8');
    // docs/configuration.md documents M 64 for one graph, 24 for a partition (it holds one region) and expansion_add 40
    // (bench/NOTES.md, session 16).
    assert.equal(DEFAULT_HNSW_PARAMETERS.connectivity, 64);
    assert.equal(DEFAULT_HNSW_PARAMETERS.partitionConnectivity, 24);
    assert.equal(DEFAULT_HNSW_PARAMETERS.expansionAdd, 40);
    // docs/configuration.md: partition graphs keep 0.95 of the vectors' energy (session 22).
    assert.equal(DEFAULT_HNSW_PARAMETERS.projectionEnergy, 0.95);
  });

  test('index_partitions or index_probes out of 1-1024 is refused at start-up', () => {
    for (const [key, value] of [['MEMSVC_SEARCH_INDEX_PARTITIONS', '0'], ['MEMSVC_SEARCH_INDEX_PROBES', '0'],
      ['MEMSVC_SEARCH_INDEX_PROBES', '-1'], ['MEMSVC_SEARCH_INDEX_PARTITIONS', '2000']] as const) {
      assert.throws(() => loadConfig({ file: join(dir, 'absent.yaml'), env: { [key]: value } }),
        key === 'MEMSVC_SEARCH_INDEX_PARTITIONS' ? /index_partitions/ : /index_probes/, `${key}=${value}`);
    }
  });

  test('index_search_threads other than 1 or 2 is refused at start-up', () => {
    for (const value of ['0', '3']) {
      assert.throws(() => loadConfig({ file: join(dir, 'absent.yaml'), env: { MEMSVC_SEARCH_INDEX_SEARCH_THREADS: value } }), /index_search_threads/, value);
    }
    assert.equal(loadConfig({ file: join(dir, 'absent.yaml'), env: { MEMSVC_SEARCH_INDEX_SEARCH_THREADS: '1' } }).search.index_search_threads, 1);
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
    const old = ThreadedVectorIndex.open(indexDir, 'test-model', DIMENSION, { connectivity: 32, partitionConnectivity: 32, expansionAdd: 200, expansionSearch: 128, partitionExpansion: 128, quantization: 'f16', partitions: 1, probes: 1, projectionEnergy: 0, searchThreads: 1 });
    assert.equal(await old.loaded, false);
    await old.add(keys, keys.map(vectorOf));
    await old.flush();
    await old.save();
    await old.close();

    const reopened = ThreadedVectorIndex.open(indexDir, 'test-model', DIMENSION, DEFAULT_HNSW_PARAMETERS);
    try {
      assert.equal(await reopened.loaded, true);
      assert.equal(reopened.size(), COUNT);
      // Saved before partitions and without a seed: it stays one graph.
      assert.deepEqual(await reopened.graphParameters(), { ...DEFAULT_HNSW_PARAMETERS, connectivity: 32, quantization: 'f16', partitions: 1 });
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
