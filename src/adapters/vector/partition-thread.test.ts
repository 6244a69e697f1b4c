import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Worker } from 'node:worker_threads';
import { PartitionThread } from './partition-thread.js';
import { PartitionedVectorIndex, SEED_VECTORS_PER_PARTITION } from './partitioned-vector-index.js';
import { DEFAULT_HNSW_PARAMETERS, type HnswParameters } from './usearch-vector.index.js';

const DIMENSION = 16;
const PARTITIONS = 4;
const TWO_THREADS: HnswParameters = { ...DEFAULT_HNSW_PARAMETERS, partitions: PARTITIONS, probes: 2, searchThreads: 2 };

function vectorOf(key: number): Float32Array {
  let state = (key + 1) * 2654435761 % 4294967296;
  const next = () => { state = (state * 1103515245 + 12345) % 2147483648; return state / 2147483648 - 0.5; };
  const vector = Float32Array.from({ length: DIMENSION }, (_, i) => (i % 8 === key % 8 ? 2 : 0) + next());
  const norm = Math.hypot(...vector);
  return vector.map((x) => x / norm);
}

function matrixOf(keys: readonly number[]): Float32Array {
  const matrix = new Float32Array(keys.length * DIMENSION);
  keys.forEach((key, i) => matrix.set(vectorOf(key), i * DIMENSION));
  return matrix;
}

const range = (from: number, to: number) => Array.from({ length: to - from }, (_, i) => from + i);

/**
 * The second search thread of a split index. Its thread ending without being stopped must reach its owner (the
 * index thread, which then fails as a whole and is opened again: test/search/index-thread-restart.test.ts) once,
 * and fail every call after, rather than leave a search or an add waiting for ever.
 */
describe('PartitionThread', () => {
  let root: string;
  before(() => { root = mkdtempSync(join(tmpdir(), 'memsvc-partition-thread-')); });
  after(() => rmSync(root, { recursive: true, force: true }));

  /**
   * A split index (thread 0's part, as the index thread holds it) with partitions on both threads, and `rowsFor`:
   * the rows of `keys` that belong to the other thread's partitions, as the index thread hands them over.
   */
  function splitIndex(dir: string) {
    const { index } = PartitionedVectorIndex.open(dir, 'm', DIMENSION, TWO_THREADS);
    const seed = range(1, PARTITIONS * SEED_VECTORS_PER_PARTITION + 1);
    index.add(seed, matrixOf(seed), 1, () => undefined);
    const layout = index.partitionLayout();
    assert.ok(layout, 'the index has split');
    assert.deepEqual(new Set(layout.threadOf), new Set([0, 1]));
    const rowsFor = (keys: number[]) => {
      let theirs: { keys: number[]; matrix: Float32Array } = { keys: [], matrix: new Float32Array(0) };
      index.add(keys, matrixOf(keys), 1, (_, otherKeys, matrix) => { theirs = { keys: otherKeys, matrix }; });
      assert.ok(theirs.keys.length > 0 && theirs.keys.length < keys.length, 'some rows of each slice are theirs');
      return theirs;
    };
    return { layout, rowsFor };
  }

  /** A partition thread of a fresh split index, opened, holding the rows of `keys` that are its own. */
  async function startedThread(name: string, keys: number[]) {
    const dir = join(root, name);
    const { layout, rowsFor } = splitIndex(dir);
    const failures: Error[] = [];
    const thread = PartitionThread.start(dir, 'm', DIMENSION, TWO_THREADS, layout, (error) => failures.push(error));
    await thread.opened;
    const rows = rowsFor(keys);
    await thread.add(keys, rows.keys, rows.matrix);
    return { thread, failures, layout, rows };
  }

  test('answers while it runs; ending unasked, it tells its owner once and fails every call after', async () => {
    const { thread, failures, layout, rows } = await startedThread('dies', range(10_001, 12_001));
    assert.equal([...thread.sizes.values()].reduce((sum, size) => sum + size, 0), rows.keys.length);
    const theirs = layout.threadOf.flatMap((owner, partition) => (owner === 1 ? [partition] : []));
    const found = await thread.search(vectorOf(rows.keys[0]!), theirs.map((partition) => ({ partition, share: 10 })));
    assert.equal(found.sort((a, b) => b.score - a.score)[0]?.key, rows.keys[0], 'a row it holds finds itself');

    // The thread ends as it would on an error it did not catch. (Idle: terminated inside usearch's native code, the
    // whole process may abort; a call waiting when a thread dies is worker-calls.test.ts's.)
    await (thread as unknown as { worker: Worker }).worker.terminate();

    assert.equal(failures.length, 1, 'its owner is told once');
    assert.match(failures[0]!.message, /partition search thread exited/);
    await assert.rejects(thread.search(vectorOf(1), [{ partition: theirs[0]!, share: 10 }]), /partition search thread exited/);
    await assert.rejects(thread.missing([1]), /partition search thread exited/);
    await thread.stop();
    assert.equal(failures.length, 1, 'stopping a failed thread is not a second failure');
  });

  test('stopped by its owner, its ending is not a failure', async () => {
    const { thread, failures } = await startedThread('stopped', range(10_001, 10_501));
    await thread.stop();
    assert.deepEqual(failures, []);
    await assert.rejects(thread.missing([1]), /exited/, 'a stopped thread answers nothing more');
  });
});
