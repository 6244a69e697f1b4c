import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { cosine } from '../../domain/exact-search.js';
import { FreshVectors } from './fresh-vectors.js';

const DIMENSION = 24;

/** Deterministic vectors, not normalized (cosine must not depend on length). */
function vectorOf(seed: number): Float32Array {
  const vector = new Float32Array(DIMENSION);
  let state = (seed * 2654435761 + 7) % 4294967296;
  for (let i = 0; i < DIMENSION; i += 1) {
    state = (state * 1103515245 + 12345) % 2147483648;
    vector[i] = (state / 2147483648 - 0.5) * (1 + (seed % 5));
  }
  return vector;
}

function matrixOf(vectors: readonly Float32Array[]): Float32Array {
  const matrix = new Float32Array(vectors.length * DIMENSION);
  vectors.forEach((vector, i) => matrix.set(vector, i * DIMENSION));
  return matrix;
}

/** Pushes keys from..to (inclusive) as one batch, key k holding vectorOf(k + shift). */
function pushRange(fresh: FreshVectors, from: number, to: number, shift = 0): void {
  const keys = Array.from({ length: to - from + 1 }, (_, i) => from + i);
  fresh.push(keys, matrixOf(keys.map((key) => vectorOf(key + shift))));
}

describe('vectors waiting for the graph', () => {
  test('search is exact cosine over every waiting vector, across batches, best first', () => {
    const fresh = new FreshVectors(DIMENSION);
    pushRange(fresh, 1, 300);
    pushRange(fresh, 301, 450);
    pushRange(fresh, 451, 460);
    for (const seed of [5000, 5001, 5002, 5003]) {
      const query = vectorOf(seed);
      const expected = Array.from({ length: 460 }, (_, i) => ({ key: i + 1, score: cosine(query, vectorOf(i + 1)) }))
        .sort((a, b) => b.score - a.score).slice(0, 15);
      const found = fresh.search(query, 15);
      assert.deepEqual(found.map((item) => item.key), expected.map((item) => item.key));
      found.forEach((item, i) => assert.ok(Math.abs(item.score - expected[i]!.score) < 1e-5));
    }
    assert.equal(fresh.search(vectorOf(1), 0).length, 0);
    assert.equal(new FreshVectors(DIMENSION).search(vectorOf(1), 5).length, 0);
  });

  test('slices leave oldest first, and a vector stays searchable until its slice is committed', () => {
    const fresh = new FreshVectors(DIMENSION);
    pushRange(fresh, 1, 100);
    pushRange(fresh, 101, 130);
    const first = fresh.take(64)!;
    assert.deepEqual(first.keys, Array.from({ length: 64 }, (_, i) => i + 1));
    assert.deepEqual([...first.matrix.subarray(DIMENSION, 2 * DIMENSION)], [...vectorOf(2)]);
    assert.equal(fresh.search(vectorOf(10), 1)[0]?.key, 10, 'taken but not committed: still here');
    fresh.commit(first);
    assert.equal(fresh.size, 66);
    assert.equal(fresh.has(10), false);
    assert.notEqual(fresh.search(vectorOf(10), 1)[0]?.key, 10);
    // The rest of a batch half in the graph is searched from the right rows (usearch's exact scan ignores a view's offset).
    for (const key of [65, 80, 100, 120]) {
      const [best] = fresh.search(vectorOf(key), 1);
      assert.equal(best?.key, key);
      assert.ok(best!.score > 0.9999);
    }
    const second = fresh.take(64)!;
    assert.deepEqual(second.keys, Array.from({ length: 64 }, (_, i) => i + 65), 'the rest of the first batch, then the next');
    for (const [i, key] of [[0, 65], [35, 100], [36, 101], [63, 128]] as const) {
      assert.deepEqual([...second.matrix.subarray(i * DIMENSION, (i + 1) * DIMENSION)], [...vectorOf(key)], `row ${i} holds key ${key}`);
    }
    fresh.commit(second);
    assert.equal(fresh.size, 2);
    assert.equal(fresh.search(vectorOf(129), 1)[0]?.key, 129, 'the rest of the second batch is searched from the right rows');
    const third = fresh.take(64)!;
    assert.deepEqual(third.keys, [129, 130]);
    fresh.commit(third);
    assert.equal(fresh.size, 0);
    assert.equal(fresh.take(64), null);
  });

  test('a slice gathers the small batches the pipeline pushes, skipping removed keys, and leaves re-added ones waiting', () => {
    const fresh = new FreshVectors(DIMENSION);
    for (let from = 1; from <= 100; from += 10) pushRange(fresh, from, from + 9);
    fresh.remove([12, 13, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30]);
    const slice = fresh.take(30)!;
    const expected = [...Array.from({ length: 10 }, (_, i) => i + 1), 11, ...Array.from({ length: 7 }, (_, i) => i + 14),
      ...Array.from({ length: 12 }, (_, i) => i + 31)];
    assert.deepEqual(slice.keys, expected, 'ten batches in order, the removed keys left out, stopping at 30 keys');
    slice.keys.forEach((key, i) => assert.deepEqual([...slice.matrix.subarray(i * DIMENSION, (i + 1) * DIMENSION)], [...vectorOf(key)]));
    // Re-added while the slice goes in: it keeps waiting with its newer vector.
    pushRange(fresh, 35, 35, 1000);
    fresh.commit(slice);
    assert.equal(fresh.size, 100 - 12 - 30 + 1);
    assert.equal(fresh.search(vectorOf(1035), 1)[0]?.key, 35);
    assert.equal(fresh.has(20), false);
    const rest: number[] = [];
    for (let next = fresh.take(1000); next; next = fresh.take(1000)) {
      rest.push(...next.keys);
      fresh.commit(next);
    }
    assert.deepEqual(rest, [...Array.from({ length: 58 }, (_, i) => i + 43), 35], 'each waiting key once, oldest first');
    assert.equal(fresh.size, 0);
  });

  test('a search and an add between a later slice\'s take and its commit leave that slice and its commit right', () => {
    const fresh = new FreshVectors(DIMENSION);
    pushRange(fresh, 1, 200);
    fresh.commit(fresh.take(64)!);
    // Taken from the middle of the batch, with the rows before it in the graph and not yet compacted away.
    const slice = fresh.take(64)!;
    assert.deepEqual(slice.keys, Array.from({ length: 64 }, (_, i) => i + 65));
    // A search between the take and the commit compacts the batch under the slice.
    assert.equal(fresh.search(vectorOf(70), 1)[0]?.key, 70);
    assert.deepEqual([...slice.matrix.subarray(5 * DIMENSION, 6 * DIMENSION)], [...vectorOf(70)], 'the slice still holds its own vectors');
    // An add before the commit re-adds a key of the slice: it keeps waiting with its newer vector after the commit.
    fresh.push([100], matrixOf([vectorOf(9999)]));
    fresh.commit(slice);
    assert.equal(fresh.size, 200 - 128 + 1);
    assert.equal(fresh.has(70), false);
    assert.equal(fresh.search(vectorOf(9999), 1)[0]?.key, 100);
    const next = fresh.take(100)!;
    assert.deepEqual(next.keys, [...Array.from({ length: 72 }, (_, i) => i + 129), 100], 'the rest of the batch, from the right row, then the re-added key');
    assert.deepEqual([...next.matrix.subarray(0, DIMENSION)], [...vectorOf(129)]);
  });

  test('a removed key is neither found nor handed to the graph', () => {
    const fresh = new FreshVectors(DIMENSION);
    pushRange(fresh, 1, 50);
    fresh.remove([3, 4, 40]);
    assert.equal(fresh.size, 47);
    for (const key of [3, 4, 40]) {
      assert.ok(!fresh.search(vectorOf(key), 50).some((item) => item.key === key));
    }
    assert.equal(fresh.search(vectorOf(7), 50).length, 47, 'removed keys do not take places from the others');
    const [nearest] = fresh.search(vectorOf(3), 1);
    assert.ok(nearest !== undefined && nearest.key !== 3, 'a removed vector that would rank first leaves its place to the next');
    const slice = fresh.take(10)!;
    assert.deepEqual(slice.keys, [1, 2, 5, 6, 7, 8, 9, 10, 11, 12], 'ten waiting keys: the removed ones take no place');
    assert.deepEqual([...slice.matrix.subarray(2 * DIMENSION, 3 * DIMENSION)], [...vectorOf(5)], 'rows copied in key order');
    fresh.commit(slice);
    fresh.remove(Array.from({ length: 40 }, (_, i) => i + 11));
    assert.equal(fresh.take(10), null, 'a batch of removed keys is skipped');
    assert.equal(fresh.size, 0);
  });

  test('a key added again is found with its newest vector only, and goes to the graph once', () => {
    const fresh = new FreshVectors(DIMENSION);
    pushRange(fresh, 1, 20);
    pushRange(fresh, 5, 5, 1000);
    assert.equal(fresh.size, 20);
    assert.equal(fresh.search(vectorOf(5), 20).some((item) => item.key === 5 && item.score > 0.9999), false, 'the old vector is gone');
    assert.equal(fresh.search(vectorOf(1005), 1)[0]?.key, 5);
    const taken: number[] = [];
    for (let slice = fresh.take(8); slice; slice = fresh.take(8)) {
      taken.push(...slice.keys);
      fresh.commit(slice);
    }
    assert.deepEqual(taken.filter((key) => key === 5).length, 1);
    assert.equal(taken.length, 20);
  });

  test('a key added again while its older copy is being inserted keeps waiting with the newer vector', () => {
    const fresh = new FreshVectors(DIMENSION);
    pushRange(fresh, 1, 10);
    const slice = fresh.take(10)!;
    pushRange(fresh, 4, 4, 1000);
    fresh.commit(slice);
    assert.equal(fresh.size, 1);
    assert.equal(fresh.search(vectorOf(1004), 1)[0]?.key, 4);
  });

  test('a key twice in one batch: its later row wins, before and after part of the batch went into the graph', () => {
    const fresh = new FreshVectors(DIMENSION);
    const keys = [1, 2, 3, 4, 5, 6, 3];
    fresh.push(keys, matrixOf([...keys.slice(0, 6).map(vectorOf), vectorOf(1003)]));
    assert.equal(fresh.size, 6);
    fresh.commit(fresh.take(2)!);
    assert.equal(fresh.search(vectorOf(4), 1)[0]?.key, 4, 'searching compacts the half-inserted batch');
    const [best] = fresh.search(vectorOf(1003), 1);
    assert.equal(best?.key, 3);
    assert.ok(best!.score > 0.9999);
    assert.ok(!fresh.search(vectorOf(3), 6).some((item) => item.key === 3 && item.score > 0.9999), 'the earlier row is gone');
    const slice = fresh.take(10)!;
    assert.deepEqual(slice.keys, [4, 5, 6, 3], 'each key once (usearch refuses a key twice in one add)');
    assert.deepEqual([...slice.matrix.subarray(3 * DIMENSION, 4 * DIMENSION)], [...vectorOf(1003)]);
    fresh.commit(slice);
    assert.equal(fresh.size, 0);
  });

  test('clear forgets everything', () => {
    const fresh = new FreshVectors(DIMENSION);
    pushRange(fresh, 1, 10);
    fresh.clear();
    assert.equal(fresh.size, 0);
    assert.equal(fresh.take(5), null);
    assert.deepEqual(fresh.search(vectorOf(1), 5), []);
  });
});
