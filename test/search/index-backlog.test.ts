import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ThreadedVectorIndex } from '../../src/adapters/vector/threaded-vector-index.js';
import { DEFAULT_HNSW_PARAMETERS } from '../../src/adapters/vector/usearch-vector.index.js';
import { removeDir } from '../helpers/service-harness.js';
import { waitFor } from '../helpers/wait-for.js';

const DIMENSION = 96;
/** Enough that inserting them takes the index thread many slices (hundreds of milliseconds). */
const COUNT = 12_000;

/** Deterministic, well-spread vectors (mulberry32 seeded by the key). */
function vectorOf(key: number): Float32Array {
  const vector = new Float32Array(DIMENSION);
  let state = key >>> 0;
  for (let i = 0; i < DIMENSION; i += 1) {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    vector[i] = ((t ^ (t >>> 14)) >>> 0) / 4294967296 - 0.5;
  }
  return vector;
}

const range = (from: number, count: number) => Array.from({ length: count }, (_, i) => from + i);

describe('vectors waiting for the HNSW graph (index thread)', () => {
  let dir: string;
  let serial = 0;
  before(() => { dir = mkdtempSync(join(tmpdir(), 'memsvc-index-backlog-')); });
  after(() => removeDir(dir));

  /** A new index with this backlog limit, loaded, for `work`; closed after it. */
  const withIndex = async (backlogLimit: number, work: (index: ThreadedVectorIndex) => Promise<void>) => {
    serial += 1;
    const index = ThreadedVectorIndex.open(join(dir, `index-${serial}`), 'test-model', DIMENSION, DEFAULT_HNSW_PARAMETERS, { backlogLimit });
    try {
      await index.loaded;
      await work(index);
    } finally {
      await index.close();
    }
  };
  /** Keys 1..COUNT, in one add. */
  const addAll = (index: ThreadedVectorIndex) => index.add(range(1, COUNT), range(1, COUNT).map(vectorOf));

  test('an added vector is found at once, exactly, while the graph still has thousands to insert', () => withIndex(1_000_000, async (index) => {
    await addAll(index);
    const last = COUNT;
    const [best] = await index.search(vectorOf(last), 3);
    assert.ok(index.waiting() > 0, 'the search ran while vectors still waited for the graph');
    assert.equal(best?.key, last, 'the newest vector, last in line for the graph, is its own nearest neighbour');
    assert.ok(best!.score > 0.9999, `found by an exact scan: score ${best!.score}`);
    assert.equal(index.size(), COUNT, 'size counts the waiting vectors');
    assert.deepEqual(await index.missing([1, last, COUNT + 1]), [COUNT + 1], 'waiting vectors are not missing');
    await index.flush();
    assert.equal(index.waiting(), 0);
    assert.equal(index.size(), COUNT);
    for (const key of [1, 5_000, last]) assert.equal((await index.search(vectorOf(key), 1))[0]?.key, key);
  }));

  test('the request thread sees the backlog drain without asking (what /embeddings/status reports)', () => withIndex(1_000_000, async (index) => {
    await addAll(index);
    assert.ok(index.waiting() > 0);
    // No request is sent while waiting: only the index thread's own reports can move these numbers.
    await waitFor(async () => index.waiting(), { what: 'the reported backlog at 0', until: (waiting) => waiting === 0, timeoutMs: 30_000 });
    assert.equal(index.size(), COUNT);
  }));

  test('add answers only once the backlog is within its limit', () => withIndex(500, async (index) => {
    for (let start = 1; start <= COUNT; start += 3_000) {
      const keys = range(start, 3_000);
      await index.add(keys, keys.map(vectorOf));
      assert.ok(index.waiting() <= 500, `after an add answered, ${index.waiting()} waited (limit 500)`);
    }
    await index.flush();
    assert.equal(index.size(), COUNT);
  }));

  test('a vector removed while it waits is not found and never reaches the graph', () => withIndex(1_000_000, async (index) => {
    await addAll(index);
    const gone = [COUNT, COUNT - 1];
    await index.remove(gone);
    assert.ok(index.waiting() > 0, 'removed while vectors still waited for the graph');
    for (const key of gone) assert.notEqual((await index.search(vectorOf(key), 1))[0]?.key, key);
    await index.flush();
    assert.deepEqual(await index.missing(gone), gone);
    assert.equal(index.size(), COUNT - 2);
  }));

  test('clear drops the waiting vectors and answers held adds', () => withIndex(100, async (index) => {
    const adding = addAll(index);
    await index.clear();
    await adding;
    await index.flush();
    assert.equal(index.size(), 0);
    assert.deepEqual(await index.search(vectorOf(1), 3), []);
  }));

  test('a save keeps what the graph holds; a restart finds the waiting vectors missing, for the catch-up to add', async () => {
    const indexDir = join(dir, 'saved-with-backlog');
    const first = ThreadedVectorIndex.open(indexDir, 'test-model', DIMENSION, DEFAULT_HNSW_PARAMETERS, { backlogLimit: 1_000_000 });
    await first.loaded;
    const early = range(1, 1_000);
    await first.add(early, early.map(vectorOf));
    await first.flush();
    const late = range(1_001, COUNT - 1_000);
    await first.add(late, late.map(vectorOf));
    await first.save();
    const inGraph = first.size() - first.waiting();
    await first.close();

    const reopened = ThreadedVectorIndex.open(indexDir, 'test-model', DIMENSION, DEFAULT_HNSW_PARAMETERS);
    try {
      assert.equal(await reopened.loaded, true);
      const all = range(1, COUNT);
      const missing = await reopened.missing(all);
      assert.equal(reopened.size(), inGraph);
      assert.equal(missing.length, COUNT - inGraph);
      assert.ok(missing.every((key) => key > 1_000), 'what was flushed before the save is all there');
    } finally {
      await reopened.close();
    }
  });

  test('closing while the thread inserts stops it between slices: terminated inside usearch, the process would abort', async () => {
    // Before close asked the thread to stop first, about one run in two of these 30 rounds ended the process with SIGABRT.
    for (let round = 0; round < 30; round += 1) {
      await withIndex(1_000_000, async (index) => {
        await addAll(index);
        await new Promise((resolve) => setTimeout(resolve, 5 + round * 3));
        assert.ok(index.waiting() > 0, 'still inserting when closed');
      });
    }
  });
});
