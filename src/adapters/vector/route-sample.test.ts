import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { RouteSample, SAMPLE_EVERY } from './route-sample.js';
import { DEFAULT_HNSW_PARAMETERS } from './usearch-vector.index.js';

const DIMENSION = 8;
const axis = (i: number) => Float32Array.from({ length: DIMENSION }, (_, j) => (j === i ? 1 : 0.01 * j));
const rowsOf = (vectors: Float32Array[]) => (rows: number[]) => {
  const matrix = new Float32Array(rows.length * DIMENSION);
  rows.forEach((row, i) => matrix.set(vectors[row]!, i * DIMENSION));
  return matrix;
};

describe('RouteSample', () => {
  let root: string;
  before(() => { root = mkdtempSync(join(tmpdir(), 'memsvc-route-')); });
  after(() => rmSync(root, { recursive: true, force: true }));

  test('holds every 64th key under its partition; a key offered again moves; forgotten keys go and are lacking; saved and reopened', () => {
    const dir = join(root, 'route');
    const sample = RouteSample.open(dir, 'm', DIMENSION, DEFAULT_HNSW_PARAMETERS, 4);
    const keys = [0, 1, SAMPLE_EVERY, SAMPLE_EVERY + 1, 2 * SAMPLE_EVERY];
    const vectors = [axis(0), axis(0), axis(1), axis(1), axis(2)];
    const partitions = [3, 3, 1, 1, 2];
    sample.offer(keys, (row) => partitions[row]!, rowsOf(vectors));
    assert.equal(sample.size(), 3, 'keys 0, 64 and 128 only');
    assert.deepEqual(sample.partitionsNear(axis(1), 1), [1]);
    assert.deepEqual(sample.partitionsNear(axis(0), 3).sort(), [1, 2, 3]);

    // Key 64 re-added in another region: one entry, under its new partition.
    sample.offer([SAMPLE_EVERY], () => 0, rowsOf([axis(1)]));
    assert.equal(sample.size(), 3);
    assert.deepEqual(sample.partitionsNear(axis(1), 1), [0]);

    sample.forget([0, 1, 5]);
    assert.equal(sample.size(), 2);
    assert.ok(!sample.partitionsNear(axis(0), 3).includes(3));
    // What it should hold and does not: 0 (forgotten) and 192 (never offered); 1 is not sampled.
    assert.deepEqual(sample.lacking([0, 1, SAMPLE_EVERY, 2 * SAMPLE_EVERY, 3 * SAMPLE_EVERY]), [0, 3 * SAMPLE_EVERY]);

    sample.graph.save();
    const reopened = RouteSample.open(dir, 'm', DIMENSION, DEFAULT_HNSW_PARAMETERS, 4);
    assert.equal(reopened.size(), 2);
    assert.deepEqual(reopened.partitionsNear(axis(2), 1), [2]);
    assert.equal(RouteSample.open(dir, 'another model', DIMENSION, DEFAULT_HNSW_PARAMETERS, 4).size(), 0, 'another model\'s sample is not read');

    // A sample saved with entries keyed another way (the first form's meta names the model alone) is not read.
    const meta = join(dir, 'vectors.meta.json');
    writeFileSync(meta, JSON.stringify({ ...JSON.parse(readFileSync(meta, 'utf8')), model: 'm' }));
    assert.equal(RouteSample.open(dir, 'm', DIMENSION, DEFAULT_HNSW_PARAMETERS, 4).size(), 0);
  });
});
