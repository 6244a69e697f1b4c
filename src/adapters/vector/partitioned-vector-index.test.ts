import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { exactTopK, packVectors } from '../../domain/exact-search.js';
import { bestOf, PartitionedVectorIndex, partitionShares, savedIndexSummary, saveIsDue, SEED_VECTORS_PER_PARTITION } from './partitioned-vector-index.js';
import { nearestCentroids } from './centroids.js';
import type { RouteSample } from './route-sample.js';
import { ThreadedVectorIndex } from './threaded-vector-index.js';
import { FakeBridge } from '../../../test/helpers/fake-bridge.js';
import { DEFAULT_HNSW_PARAMETERS, type HnswParameters } from './usearch-vector.index.js';

const DIMENSION = 16;
const CLUSTERS = 8;
const PARTITIONS = 4;
const SPLIT_AT = PARTITIONS * SEED_VECTORS_PER_PARTITION;
/** In one thread: with two search threads, the index hands the other thread's rows over (the index thread does, below). */
const PARAMETERS: HnswParameters = { ...DEFAULT_HNSW_PARAMETERS, partitions: PARTITIONS, probes: 2, searchThreads: 1 };
/** Partitions whose graphs hold projected vectors (0.95 of the energy, as the setting's documented choice). */
const PROJECTED: HnswParameters = { ...PARAMETERS, projectionEnergy: 0.95 };

/** Deterministic unit vectors around CLUSTERS centres (the key picks the cluster), as text embeddings cluster by topic. */
function vectorOf(key: number, cluster = key % CLUSTERS): Float32Array {
  let state = (key + 1) * 2654435761 % 4294967296;
  const next = () => { state = (state * 1103515245 + 12345) % 2147483648; return state / 2147483648 - 0.5; };
  const vector = new Float32Array(DIMENSION);
  for (let i = 0; i < DIMENSION; i += 1) vector[i] = (i % CLUSTERS === cluster ? 2 : 0) + next();
  const norm = Math.hypot(...vector);
  return vector.map((x) => x / norm);
}

/** The keys' vectors, one row each (rows as long as `vector` makes them). */
function matrixOf(keys: readonly number[], vector: (key: number) => Float32Array = vectorOf): Float32Array {
  const rows = keys.map((key) => vector(key));
  const dimension = rows[0]?.length ?? DIMENSION;
  const matrix = new Float32Array(keys.length * dimension);
  rows.forEach((row, i) => matrix.set(row, i * dimension));
  return matrix;
}

const unit = (vector: Float32Array) => { const norm = Math.hypot(...vector); return vector.map((x) => x / norm); };
const range = (from: number, to: number) => Array.from({ length: to - from }, (_, i) => from + i);

/** Adds in slices of 64, as the index thread does, putting back whatever a split hands back. */
function addAll(index: PartitionedVectorIndex, keys: readonly number[], vector: (key: number) => Float32Array = vectorOf): void {
  for (let from = 0; from < keys.length; from += 64) {
    const slice = keys.slice(from, from + 64);
    index.add(slice, matrixOf(slice, vector));
    const moved = index.takeMoved();
    if (moved) index.add(moved.keys, moved.matrix);
  }
}

const WIDE = 64;
/** 24 fixed directions of WIDE floats: text embeddings hold most of their energy in a few of their dimensions. */
const TOPICS = Array.from({ length: 24 }, (_, t) => {
  let state = (t + 7) * 40503;
  return Float32Array.from({ length: WIDE }, () => { state = (state * 1103515245 + 12345) % 2147483648; return state / 2147483648 - 0.5; });
});
/** Unit vectors of WIDE floats: a mix of TOPICS, one of the first CLUSTERS strongest (the key picks it), and faint noise. */
function wideVectorOf(key: number): Float32Array {
  let state = (key + 1) * 2654435761 % 4294967296;
  const next = () => { state = (state * 1103515245 + 12345) % 2147483648; return state / 2147483648 - 0.5; };
  const vector = new Float32Array(WIDE);
  TOPICS.forEach((topic, t) => {
    const weight = (t === key % CLUSTERS ? 3 : 0) + next();
    for (let i = 0; i < WIDE; i += 1) vector[i]! += weight * topic[i]!;
  });
  for (let i = 0; i < WIDE; i += 1) vector[i]! += 0.02 * next();
  const norm = Math.hypot(...vector);
  return vector.map((x) => x / norm);
}

describe('PartitionedVectorIndex', () => {
  let root: string;
  let n = 0;
  const freshDir = () => join(root, `index-${(n += 1)}`);
  before(() => { root = mkdtempSync(join(tmpdir(), 'memsvc-partitions-')); });
  after(() => rmSync(root, { recursive: true, force: true }));

  test('is one graph until it holds partitions x 512 vectors, then splits and hands those vectors back once', () => {
    const { index, loaded } = PartitionedVectorIndex.open(freshDir(), 'm', DIMENSION, PARAMETERS);
    assert.equal(loaded, false);
    assert.equal(index.layout(), 'seeding');
    const first = range(1, SPLIT_AT);
    for (let from = 0; from < first.length; from += 64) index.add(first.slice(from, from + 64), matrixOf(first.slice(from, from + 64)));
    assert.equal(index.layout(), 'seeding');
    assert.equal(index.takeMoved(), null);
    assert.equal(index.size(), SPLIT_AT - 1);

    index.add([SPLIT_AT], matrixOf([SPLIT_AT]));
    assert.equal(index.layout(), 'partitioned');
    assert.equal(index.size(), 0, 'the split partitions start empty');
    const moved = index.takeMoved();
    assert.deepEqual(moved?.keys, range(1, SPLIT_AT + 1));
    assert.deepEqual(moved?.matrix.subarray(0, DIMENSION), vectorOf(1));
    assert.equal(index.takeMoved(), null, 'handed back once');
    index.add(moved!.keys, moved!.matrix);
    assert.equal(index.size(), SPLIT_AT);
    assert.equal(index.graphParameters().partitions, PARTITIONS);
  });

  test('after the split every vector finds itself, and its probes give nearly the exact ten', () => {
    const { index } = PartitionedVectorIndex.open(freshDir(), 'm', DIMENSION, PARAMETERS);
    const keys = range(1, 3001);
    addAll(index, keys);
    assert.equal(index.layout(), 'partitioned');
    assert.equal(index.size(), keys.length);
    assert.deepEqual(index.missing(keys), []);
    for (const key of [1, 777, 2048, 2049, 3000]) assert.equal(index.search(vectorOf(key), 5)[0]?.key, key);
    const all = packVectors(keys.map((key) => ({ key, vector: vectorOf(key) })), DIMENSION);
    let hits = 0;
    const queries = range(5001, 5041);
    for (const q of queries) {
      const exact = new Set(exactTopK(vectorOf(q), all, 10).map((item) => item.key));
      hits += index.search(vectorOf(q), 10).filter((item) => exact.has(item.key)).length;
    }
    assert.ok(hits / (queries.length * 10) >= 0.9, `recall@10 ${hits / (queries.length * 10)}`);
  });

  test('split between two search threads, the partitions hold each vector once and answer as on one thread', () => {
    const keys = range(1, 3001);
    const { index: one } = PartitionedVectorIndex.open(freshDir(), 'm', DIMENSION, PARAMETERS);
    addAll(one, keys);
    const dir = freshDir();
    const twoThreads = { ...PARAMETERS, searchThreads: 2 };
    const { index: first } = PartitionedVectorIndex.open(dir, 'm', DIMENSION, twoThreads);
    let second: PartitionedVectorIndex | null = null;
    let handedOver = 0;
    const other = (sliceKeys: readonly number[], otherKeys: number[], matrix: Float32Array) => {
      second!.remove(sliceKeys);
      second!.add(otherKeys, matrix);
      handedOver += otherKeys.length;
    };
    for (let from = 0; from < keys.length; from += 64) {
      const slice = keys.slice(from, from + 64);
      first.add(slice, matrixOf(slice), 1, other);
      const layout = first.partitionLayout();
      if (layout && !second) second = PartitionedVectorIndex.openThreadPart(dir, 'm', DIMENSION, twoThreads, layout, 1);
      const moved = first.takeMoved();
      if (moved) first.add(moved.keys, moved.matrix, 1, other);
    }
    const threadOf = first.partitionLayout()!.threadOf;
    assert.deepEqual(new Set(threadOf), new Set([0, 1]), 'both threads hold partitions');
    first.useOtherSizes(new Map(second!.ownSizes()));
    assert.equal(first.size(), keys.length);
    assert.equal(second!.size() + first.ownSizes().reduce((sum, [, size]) => sum + size, 0), keys.length, 'each vector is in one thread');
    assert.equal(handedOver, second!.ownSizes().reduce((sum, [, size]) => sum + size, 0));
    assert.deepEqual(second!.missing(first.missing(keys)), [], 'what the first thread lacks, the second holds');
    for (const q of [...range(5001, 5031), 1, 1500, 3000]) {
      const plan = first.searchPlan(vectorOf(q), 10);
      const both = bestOf([...first.searchOwn(plan.graphQuery, plan.asks), ...second!.searchOwn(plan.graphQuery, plan.asks)], plan.depth);
      assert.deepEqual(both, one.search(vectorOf(q), 10), `question ${q}`);
    }
    // A key re-added with a vector of another region leaves the partition (and thread) it was in.
    const moving = keys.find((key) => threadOf[Number(first.searchPlan(vectorOf(key), 1).asks[0]!.partition)] === 1)!;
    first.add([moving], vectorOf(moving, (moving + 1) % CLUSTERS), 1, other);
    assert.equal(first.missing([moving]).length + second!.missing([moving]).length, 1, 'in exactly one thread\'s partitions');
  });

  test('vectors given as views further into a buffer (as the index thread slices them) go to their own region', () => {
    const { index } = PartitionedVectorIndex.open(freshDir(), 'm', DIMENSION, PARAMETERS);
    const keys = range(1, 3001);
    const whole = matrixOf(keys);
    // Slices of 61 (not a multiple of the 8 clusters), so a view read from its buffer's start lands elsewhere.
    for (let from = 0; from < keys.length; from += 61) {
      const slice = keys.slice(from, from + 61);
      index.add(slice, whole.subarray(from * DIMENSION, (from + slice.length) * DIMENSION));
      const moved = index.takeMoved();
      // Handed back as one block and put back in views of it, as the waiting list does.
      for (let at = 0; moved && at < moved.keys.length; at += 61) {
        index.add(moved.keys.slice(at, at + 61), moved.matrix.subarray(at * DIMENSION, Math.min(moved.keys.length, at + 61) * DIMENSION));
      }
    }
    assert.equal(index.layout(), 'partitioned');
    const lost = keys.filter((key) => index.search(vectorOf(key), 1)[0]?.key !== key);
    assert.deepEqual(lost, [], 'every vector is found by a search for itself');
  });

  test('a search for few candidates asks the nearest two partitions for all of them and the others for what they explore', () => {
    assert.deepEqual(partitionShares(116, 6, 64), [116, 116, 64, 64, 64, 64]);
    assert.deepEqual(partitionShares(10, 6, 64), [10, 10, 10, 10, 10, 10], 'never more than k');
    assert.deepEqual(partitionShares(116, 1, 64), [116]);
    assert.deepEqual(partitionShares(128, 6, 64), [128, 128, 64, 64, 64, 64]);
    assert.deepEqual(partitionShares(116, 6, 64, 4), [116, 116, 64, 64], 'never more partitions than there are');
    assert.deepEqual(partitionShares(116, 6, 48, 32, 2), [232, 232, 48, 48, 48, 48], 'a projected index widens the nearest two');
    assert.deepEqual(partitionShares(4000, 6, 64, 32, 2), partitionShares(4000, 6, 64, 32), 'but not a filtered search\'s shares');
    // Every partition probed, the far ones asked for less: the exact best of the whole index still come back.
    const { index } = PartitionedVectorIndex.open(freshDir(), 'm', DIMENSION, { ...PARAMETERS, probes: PARTITIONS, partitionExpansion: 4 });
    const keys = range(1, 3001);
    addAll(index, keys);
    assert.equal(index.layout(), 'partitioned');
    const exact = packVectors(keys.map((key) => ({ key, vector: vectorOf(key) })), DIMENSION);
    for (const query of [vectorOf(5), vectorOf(7001, 3), vectorOf(7002, 6)]) {
      const found = index.search(query, 116);
      assert.equal(found.length, 116);
      assert.equal(new Set(found.map((item) => item.key)).size, 116);
      const best = exactTopK(query, exact, 10).map((item) => item.key);
      assert.deepEqual(best.filter((key) => !found.some((item) => item.key === key)), []);
    }
  });

  test('a search for many candidates (a filtered search) probes two more partitions, asking the farther ones for less', () => {
    const shares = partitionShares(4000, 6, 64, 32);
    assert.equal(shares.length, 8);
    assert.ok(shares.every((share, i) => i === 0 || share < shares[i - 1]!), `falling shares: ${shares.join(',')}`);
    const asked = shares.reduce((sum, share) => sum + share, 0);
    assert.ok(asked >= 4000 && asked <= 1.5 * 4000, `more than k in all, much less than six half-shares: ${asked}`);
    assert.deepEqual(partitionShares(129, 6, 64, 32), Array(8).fill(128), 'never fewer than 128 a partition');
    assert.deepEqual(partitionShares(4000, 6, 64, 5).length, 5, 'never more partitions than there are');
    const alone = partitionShares(4000, 1, 64, 32);
    assert.ok(alone.length === 3 && alone.reduce((sum, share) => sum + share, 0) >= 4000, 'with one probe, still k in all');
    assert.deepEqual(partitionShares(300, 6, 64, 1), [300], 'one partition gives k whole');
  });

  test('with a sample of a filter\'s vectors, a search asks the partitions holding them, not those nearest the question', () => {
    // One probe: without the sample only the question's own region is searched.
    const { index } = PartitionedVectorIndex.open(freshDir(), 'm', DIMENSION, { ...PARAMETERS, probes: 1 });
    const keys = range(1, 4001);
    addAll(index, keys);
    assert.equal(index.layout(), 'partitioned');
    // The "folder": the keys of cluster 5. The question sits in cluster 0.
    const folder = keys.filter((key) => key % CLUSTERS === 5);
    const query = vectorOf(9001, 0);
    const exactInFolder = exactTopK(query, packVectors(folder.map((key) => ({ key, vector: vectorOf(key) })), DIMENSION), 10)
      .map((item) => item.key);
    const inFolder = (found: Array<{ key: number }>) => found.filter((item) => folder.includes(item.key)).map((item) => item.key);

    const plain = index.search(query, 200);
    assert.ok(inFolder(plain).length < 10, `the question's region holds few of the folder's vectors (${inFolder(plain).length})`);

    const sample = matrixOf(folder.filter((_, i) => i % 10 === 0));
    const among = index.search(query, 800, sample);
    assert.ok(among.length < 800, `asked for their share of the index only (${among.length} of 800)`);
    assert.ok(inFolder(among).length >= 0.75 * among.length, `most candidates are the folder's (${inFolder(among).length} of ${among.length})`);
    assert.deepEqual(exactInFolder.filter((key) => !among.some((item) => item.key === key)), [], 'the folder\'s exact best ten are among them');
    // Every holding partition is probed already, so the headroom a filtered search spends on farther ones goes deeper
    // (here a filter whose vectors every partition holds).
    const plan = index.searchPlan(query, 2000, matrixOf(keys.filter((_, i) => i % 10 === 0)));
    const asked = plan.asks.reduce((sum, ask) => sum + ask.share, 0);
    const filtered = partitionShares(plan.depth, plan.asks.length, PARAMETERS.partitionExpansion, plan.asks.length)
      .reduce((sum, share) => sum + share, 0);
    assert.ok(plan.asks.length >= 2 && asked >= 1.8 * filtered, `${plan.asks.length} holding partitions asked for ${asked}, a filtered search's shares ${filtered}`);
    assert.deepEqual(index.search(query, 200, new Float32Array(0)).map((item) => item.key), plain.map((item) => item.key),
      'an empty sample searches as without one');
  });

  test('a question between regions finds its nearest vectors in a partition the centroids do not pick (the route sample); saved and reopened too', () => {
    const dir = freshDir();
    const onePartition: HnswParameters = { ...PARAMETERS, probes: 1 };
    const index = PartitionedVectorIndex.open(dir, 'm', DIMENSION, onePartition).index;
    addAll(index, range(1, SPLIT_AT + 513));
    const { centroids } = index.partitionLayout()!;
    // u: one partition's centroid; w: the part of another's at right angles to it.
    const centroid = (c: number) => centroids.matrix.subarray(c * DIMENSION, (c + 1) * DIMENSION);
    const u = centroid(0);
    const other = centroid(1);
    const along = other.reduce((sum, x, i) => sum + x * u[i]!, 0);
    const w = unit(other.map((x, i) => x - along * u[i]!));
    const mix = (a: number, b: number, noise = 0, key = 0) => {
      let state = key + 1;
      const next = () => { state = (state * 1103515245 + 12345) % 2147483648; return state / 2147483648 - 0.5; };
      return unit(u.map((x, i) => a * x + b * w[i]! + noise * next()));
    };
    // The question leans to u's partition; its nearest vectors (cosine 0.94) lean to the other's.
    const question = mix(0.8, 0.6);
    const bridging = range(6400, 6600);
    index.add(bridging, matrixOf(bridging, (key) => mix(0.55, 0.835, 0.02, key)));
    const [questionsPartition] = nearestCentroids(centroids, question, 1);
    const [theirPartition] = nearestCentroids(centroids, matrixOf([6400], (key) => mix(0.55, 0.835, 0.02, key)), 1);
    assert.notEqual(questionsPartition, theirPartition, 'the one partition the centroids pick does not hold them');

    const all = [...range(1, SPLIT_AT + 513), ...bridging];
    const vectors = packVectors(all.map((key) => ({ key, vector: key >= 6400 ? mix(0.55, 0.835, 0.02, key) : vectorOf(key) })), DIMENSION);
    // The 200 bridging vectors are the question's nearest by far (they differ among themselves by noise alone).
    const exact = exactTopK(question, vectors, 201);
    assert.ok(exact.slice(0, 200).every((item) => bridging.includes(item.key)));
    assert.ok(exact[199]!.score - exact[200]!.score > 0.2);
    const found = (searched: PartitionedVectorIndex) => searched.search(question, 10).map((item) => item.key);
    const foundThem = (keys: number[]) => keys.length === 10 && keys.every((key) => bridging.includes(key));
    assert.ok(foundThem(found(index)), 'the sample names their partition, which is searched too');

    index.save();
    const reopened = PartitionedVectorIndex.open(dir, 'm', DIMENSION, onePartition).index;
    assert.ok(foundThem(found(reopened)), 'the sample is saved with the partitions');

    // Removed, they are found no more, and the sample forgets its four of them (6400, 6464, 6528, 6592).
    const sampled = () => (reopened as unknown as { route: RouteSample }).route.size();
    const before = sampled();
    reopened.remove(bridging);
    assert.ok(found(reopened).every((key) => !bridging.includes(key)));
    assert.equal(sampled(), before - 4);
  });

  test('a filtered search of the partitions still returns k, best first', () => {
    const { index } = PartitionedVectorIndex.open(freshDir(), 'm', DIMENSION, PARAMETERS);
    addAll(index, range(1, 3001));
    const found = index.search(vectorOf(5), 1000);
    assert.equal(found.length, 1000);
    assert.equal(new Set(found.map((item) => item.key)).size, 1000);
    assert.ok(found.every((item, i) => i === 0 || found[i - 1]!.score >= item.score));
    assert.equal(found[0]!.key, 5);
  });

  test('saved partitions reopen as they were; a restart before the split keeps the seed and splits later', () => {
    const dir = freshDir();
    const first = PartitionedVectorIndex.open(dir, 'm', DIMENSION, PARAMETERS).index;
    addAll(first, range(1, 1001));
    first.save();
    const seeding = PartitionedVectorIndex.open(dir, 'm', DIMENSION, PARAMETERS);
    assert.equal(seeding.loaded, true);
    assert.equal(seeding.index.layout(), 'seeding');
    assert.equal(seeding.index.size(), 1000);
    const rest = range(1001, 2501);
    let moved = 0;
    for (let from = 0; from < rest.length; from += 64) {
      const slice = rest.slice(from, from + 64);
      seeding.index.add(slice, matrixOf(slice));
      const back = seeding.index.takeMoved();
      if (back) { moved = back.keys.length; seeding.index.add(back.keys, back.matrix); }
    }
    assert.ok(moved >= SPLIT_AT, `the saved seed joined the split (${moved} moved)`);
    assert.equal(seeding.index.size(), 2500);
    seeding.index.save();
    assert.equal(existsSync(join(dir, 'vectors.usearch')), false, 'the first graph is gone once the partitions are saved');
    assert.equal(existsSync(join(dir, 'vectors.seed.f32')), false);

    const reopened = PartitionedVectorIndex.open(dir, 'm', DIMENSION, PARAMETERS);
    assert.equal(reopened.loaded, true);
    assert.equal(reopened.index.layout(), 'partitioned');
    assert.equal(reopened.index.size(), 2500);
    for (const key of [1, 1000, 2500]) assert.equal(reopened.index.search(vectorOf(key), 3)[0]?.key, key);
    // A different model's partitions are not this index's: it starts empty.
    assert.equal(PartitionedVectorIndex.open(dir, 'other-model', DIMENSION, PARAMETERS).index.size(), 0);
  });

  test('a save in steps writes one changed partition a step; what is added between steps is kept by the next save', () => {
    const dir = freshDir();
    const index = PartitionedVectorIndex.open(dir, 'm', DIMENSION, PARAMETERS).index;
    addAll(index, range(1, 2501));
    assert.equal(index.layout(), 'partitioned');
    let steps = 0;
    for (const _ of index.saveInSteps()) {
      steps += 1;
      // Between the steps the index thread answers searches and keeps inserting.
      if (steps === 1) addAll(index, range(2501, 2601));
      assert.equal(index.search(vectorOf(2), 1)[0]?.key, 2);
    }
    // A step a partition, and one for the route sample.
    assert.ok(steps >= 2 && steps <= PARTITIONS + 1, `${steps} steps`);
    assert.equal(PartitionedVectorIndex.open(dir, 'm', DIMENSION, PARAMETERS).index.layout(), 'partitioned');
    // The first step's partition took some of the later vectors after it was written: it is written again.
    assert.ok([...index.saveInSteps()].length >= 1);
    const reopened = PartitionedVectorIndex.open(dir, 'm', DIMENSION, PARAMETERS).index;
    assert.equal(reopened.size(), 2600);
    for (const key of [1, 2500, 2550, 2600]) assert.equal(reopened.search(vectorOf(key), 3)[0]?.key, key);
    assert.equal([...index.saveInSteps()].length, 0, 'nothing changed since: nothing to write');
  });

  test('the periodic save writes a partition once a tenth of it changed, or after 20 passes; every-change writes the rest', () => {
    const dir = freshDir();
    const index = PartitionedVectorIndex.open(dir, 'm', DIMENSION, PARAMETERS).index;
    addAll(index, range(1, 2501));
    index.save();
    const savedSize = () => PartitionedVectorIndex.open(dir, 'm', DIMENSION, PARAMETERS).index.size();
    assert.equal(savedSize(), 2500);

    // A handful of changes in a partition of ~600 vectors: not worth rewriting it, 20 periods running.
    addAll(index, range(2501, 2505));
    for (let period = 1; period <= 20; period += 1) assert.equal([...index.saveInSteps('due')].length, 0, `period ${period}`);
    assert.equal(savedSize(), 2500, 'the few changes are not on disk yet (a crash leaves them to the catch-up)');
    assert.ok([...index.saveInSteps('due')].length >= 1, 'the 21st period writes the graph passed over 20 times');
    assert.equal(savedSize(), 2504);

    // A tenth of one cluster's partition at once: that graph is due at the next period, the others are not.
    const clusterZero = range(10_000, 10_160);
    index.add(clusterZero, matrixOf(clusterZero, (key) => vectorOf(key, 0)));
    assert.equal([...index.saveInSteps('due')].length, 1);
    assert.equal(savedSize(), 2664);
    addAll(index, range(2505, 2509));
    assert.equal([...index.saveInSteps('due')].length, 0);
    assert.ok([...index.saveInSteps('every-change')].length >= 1, 'a stop writes the few changes too');
    assert.equal(savedSize(), 2668);
    assert.equal([...index.saveInSteps('due')].length, 0, 'nothing left to write');
  });

  test('one graph that never splits is saved by the same rule; a seeding graph always with its seed', () => {
    const dir = freshDir();
    const single = PartitionedVectorIndex.open(dir, 'm', DIMENSION, { ...PARAMETERS, partitions: 1 }).index;
    addAll(single, range(1, 1001));
    single.save();
    addAll(single, range(1001, 1011));
    const savedSize = () => PartitionedVectorIndex.open(dir, 'm', DIMENSION, { ...PARAMETERS, partitions: 1 }).index.size();
    for (let period = 1; period <= 20; period += 1) [...single.saveInSteps('due')];
    assert.equal(savedSize(), 1000, '10 changes in 1,010 are not due for 20 periods');
    [...single.saveInSteps('due')];
    assert.equal(savedSize(), 1010);

    const seedingDir = freshDir();
    const seeding = PartitionedVectorIndex.open(seedingDir, 'm', DIMENSION, PARAMETERS).index;
    addAll(seeding, range(1, 1001));
    seeding.save();
    addAll(seeding, range(1001, 1003));
    [...seeding.saveInSteps('due')];
    const reopened = PartitionedVectorIndex.open(seedingDir, 'm', DIMENSION, PARAMETERS);
    assert.equal(reopened.loaded, true, 'graph and seed were written together, so they still match');
    assert.equal(reopened.index.size(), 1002);
  });

  test('saveIsDue: at a tenth of the graph changed, or once passed over 20 times', () => {
    assert.equal(saveIsDue(99, 1000, 0), false);
    assert.equal(saveIsDue(100, 1000, 0), true);
    assert.equal(saveIsDue(1, 1000, 19), false);
    assert.equal(saveIsDue(1, 1000, 20), true);
  });

  test('a seed saved at another moment than its graph (a crash between the two writes) seeds again from nothing', () => {
    const dir = freshDir();
    const first = PartitionedVectorIndex.open(dir, 'm', DIMENSION, PARAMETERS).index;
    addAll(first, range(1, 501));
    first.save();
    const seedFile = join(dir, 'vectors.seed.f32');
    const older = readFileSync(seedFile);
    addAll(first, range(501, 601));
    first.save();
    writeFileSync(seedFile, older);
    const reopened = PartitionedVectorIndex.open(dir, 'm', DIMENSION, PARAMETERS);
    assert.equal(reopened.loaded, false, 'the owner adds the stored vectors again');
    assert.equal(reopened.index.size(), 0);
    assert.equal(reopened.index.layout(), 'seeding');
    addAll(reopened.index, range(1, SPLIT_AT + 1));
    assert.equal(reopened.index.layout(), 'partitioned');
  });

  test('a saved graph without a seed (built before partitions) stays one graph, and partitions 1 never splits', () => {
    const dir = freshDir();
    const old = PartitionedVectorIndex.open(dir, 'm', DIMENSION, { ...PARAMETERS, partitions: 1 }).index;
    addAll(old, range(1, SPLIT_AT + 101));
    assert.equal(old.layout(), 'single');
    old.save();
    const reopened = PartitionedVectorIndex.open(dir, 'm', DIMENSION, PARAMETERS).index;
    assert.equal(reopened.layout(), 'single');
    addAll(reopened, range(SPLIT_AT + 101, SPLIT_AT + 301));
    assert.equal(reopened.layout(), 'single');
    assert.equal(reopened.size(), SPLIT_AT + 300);
  });

  test('a removed key is gone from every partition; a re-added key moves to its new region, once', () => {
    const { index } = PartitionedVectorIndex.open(freshDir(), 'm', DIMENSION, PARAMETERS);
    addAll(index, range(1, 2501));
    index.remove([10]);
    assert.equal(index.contains(10), false);
    assert.notEqual(index.search(vectorOf(10), 1)[0]?.key, 10);
    // Key 11 belongs to cluster 3; give it a vector in cluster 6.
    const moved = vectorOf(11, 6);
    index.add([11], moved);
    assert.equal(index.size(), 2499);
    assert.equal(index.search(moved, 1)[0]?.key, 11);
    assert.deepEqual(index.search(moved, 50).filter((item) => item.key === 11).length, 1);
    index.save();
  });

  test('a slice goes in a partition a step: searchable between steps, and a clear between steps ends it', () => {
    const { index } = PartitionedVectorIndex.open(freshDir(), 'm', DIMENSION, PARAMETERS);
    addAll(index, range(1, 2501));
    const slice = range(3001, 3161);
    let steps = 0;
    for (const _ of index.addInSteps(slice, matrixOf(slice))) {
      steps += 1;
      // Between steps the index thread answers searches: what went in is found, what was there stays found.
      assert.equal(index.search(vectorOf(2), 1)[0]?.key, 2);
      assert.ok(index.size() > 2500 && index.size() < 2660, `${index.size()} after ${steps} steps`);
    }
    assert.ok(steps >= 1 && steps < PARTITIONS, `${steps} steps: a yield between two partitions`);
    assert.equal(index.size(), 2660);
    assert.deepEqual(index.missing(slice), []);

    const next = range(4001, 4161);
    for (const _ of index.addInSteps(next, matrixOf(next))) index.clear();
    assert.equal(index.layout(), 'seeding');
    assert.equal(index.size(), 0, 'nothing of the slice went into the cleared index');
  });

  test('vectors with most of their energy in a few directions: the split projects them, and the graphs find the exact ten', () => {
    const { index } = PartitionedVectorIndex.open(freshDir(), 'm', WIDE, PROJECTED);
    const keys = range(1, 3001);
    addAll(index, keys, wideVectorOf);
    assert.equal(index.layout(), 'partitioned');
    assert.equal(index.graphDimension(), 32, 'the graphs hold 32 of the 64 dimensions');
    assert.deepEqual(index.missing(keys), []);
    const lost = keys.filter((key) => index.search(wideVectorOf(key), 1)[0]?.key !== key);
    assert.deepEqual(lost, [], 'every vector is found by a search for itself');
    const all = packVectors(keys.map((key) => ({ key, vector: wideVectorOf(key) })), WIDE);
    let hits = 0;
    const queries = range(5001, 5041);
    for (const q of queries) {
      // The caller re-ranks the graphs' candidates exactly, as SqliteVectorSearch does with the stored vectors.
      const exact = exactTopK(wideVectorOf(q), all, 10).map((item) => item.key);
      const candidates = index.search(wideVectorOf(q), 40).map((item) => item.key);
      const reranked = exactTopK(wideVectorOf(q), packVectors(candidates.map((key) => ({ key, vector: wideVectorOf(key) })), WIDE), 10);
      hits += reranked.filter((item) => exact.includes(item.key)).length;
    }
    assert.ok(hits / (queries.length * 10) >= 0.95, `recall@10 ${hits / (queries.length * 10)}`);
  });

  test('a projection is saved with the partitions and read back; projectionEnergy 0 keeps the full vectors', () => {
    const dir = freshDir();
    const first = PartitionedVectorIndex.open(dir, 'm', WIDE, PROJECTED).index;
    addAll(first, range(1, 2501), wideVectorOf);
    const before = [7, 1234, 2500].map((key) => first.search(wideVectorOf(key + 0.5), 5));
    first.save();
    const reopened = PartitionedVectorIndex.open(dir, 'm', WIDE, PROJECTED);
    assert.equal(reopened.loaded, true);
    assert.equal(reopened.index.graphDimension(), 32);
    assert.equal(reopened.index.size(), 2500);
    assert.deepEqual([7, 1234, 2500].map((key) => reopened.index.search(wideVectorOf(key + 0.5), 5)), before, 'the same answers after a restart');
    // What `memsvc doctor` reads of it without loading a graph.
    assert.deepEqual(savedIndexSummary(dir), { model: 'm', vectors: 2500, partitions: PARTITIONS, dimension: WIDE, graphDimension: 32 });
    // The saved projection is what counts, not the setting: an index learned with one keeps it.
    assert.equal(PartitionedVectorIndex.open(dir, 'm', WIDE, { ...PROJECTED, projectionEnergy: 0 }).index.graphDimension(), 32);

    const full = PartitionedVectorIndex.open(freshDir(), 'm', WIDE, { ...PROJECTED, projectionEnergy: 0 }).index;
    addAll(full, range(1, 2501), wideVectorOf);
    assert.equal(full.layout(), 'partitioned');
    assert.equal(full.graphDimension(), WIDE);
  });

  test('partitions saved before projections existed (no projection in their meta) open with the full vectors', () => {
    const dir = freshDir();
    const old = PartitionedVectorIndex.open(dir, 'm', WIDE, { ...PROJECTED, projectionEnergy: 0 }).index;
    addAll(old, range(1, 2501), wideVectorOf);
    old.save();
    const metaFile = join(dir, 'partitions', 'partitions.json');
    const { projection: _, ...meta } = JSON.parse(readFileSync(metaFile, 'utf8')) as Record<string, unknown>;
    writeFileSync(metaFile, JSON.stringify(meta));
    const reopened = PartitionedVectorIndex.open(dir, 'm', WIDE, PROJECTED);
    assert.equal(reopened.loaded, true);
    assert.equal(reopened.index.graphDimension(), WIDE);
    assert.equal(reopened.index.size(), 2500);
    for (const key of [1, 1300, 2500]) assert.equal(reopened.index.search(wideVectorOf(key), 1)[0]?.key, key);
  });

  test('the summary of a saved index: one seeding graph, or nothing saved', () => {
    const dir = freshDir();
    assert.equal(savedIndexSummary(dir), null);
    const seeding = PartitionedVectorIndex.open(dir, 'm', WIDE, PROJECTED).index;
    addAll(seeding, range(1, 1001), wideVectorOf);
    seeding.save();
    assert.deepEqual(savedIndexSummary(dir), { model: 'm', vectors: 1000, partitions: 1, dimension: WIDE, graphDimension: WIDE });
  });

  test('a projection file that does not match its meta is not read: the index starts again', () => {
    const dir = freshDir();
    const first = PartitionedVectorIndex.open(dir, 'm', WIDE, PROJECTED).index;
    addAll(first, range(1, 2501), wideVectorOf);
    first.save();
    writeFileSync(join(dir, 'partitions', 'projection.f32'), Buffer.alloc(12));
    const reopened = PartitionedVectorIndex.open(dir, 'm', WIDE, PROJECTED);
    assert.equal(reopened.loaded, false);
    assert.equal(reopened.index.size(), 0);
  });

  test('a meta naming a projection as wide as the vectors is not read, by the index nor by its summary', () => {
    const dir = freshDir();
    const first = PartitionedVectorIndex.open(dir, 'm', WIDE, PROJECTED).index;
    addAll(first, range(1, 2501), wideVectorOf);
    first.save();
    const metaFile = join(dir, 'partitions', 'partitions.json');
    writeFileSync(metaFile, JSON.stringify({ ...JSON.parse(readFileSync(metaFile, 'utf8')) as object, projection: WIDE }));
    assert.equal(savedIndexSummary(dir), null);
    const reopened = PartitionedVectorIndex.open(dir, 'm', WIDE, PROJECTED);
    assert.equal(reopened.loaded, false);
    assert.equal(reopened.index.size(), 0);
  });

  test('clear deletes the partitions and starts seeding again', () => {
    const dir = freshDir();
    const { index } = PartitionedVectorIndex.open(dir, 'm', DIMENSION, PARAMETERS);
    addAll(index, range(1, 2501));
    index.save();
    assert.ok(existsSync(join(dir, 'partitions', 'partitions.json')));
    index.clear();
    assert.equal(index.layout(), 'seeding');
    assert.equal(index.size(), 0);
    assert.equal(existsSync(join(dir, 'partitions')), false);
    assert.equal(PartitionedVectorIndex.open(dir, 'm', DIMENSION, PARAMETERS).loaded, false);
  });

  for (const searchThreads of [1, 2]) test(`in the index thread (${searchThreads} search threads), a removal while a slice goes in waits for it: no removed vector lands in the graph`, async () => {
    const index = ThreadedVectorIndex.open(freshDir(), 'm', DIMENSION, { ...PARAMETERS, searchThreads });
    try {
      await index.loaded;
      await index.add(range(1, 2501), range(1, 2501).map((key) => vectorOf(key)));
      await index.flush();
      for (let round = 0; round < 5; round += 1) {
        const keys = range(10_000 + round * 1000, 10_000 + round * 1000 + 900);
        await index.add(keys, keys.map((key) => vectorOf(key)));
        // Sent while the slices of these keys go into the partitions, a step at a time.
        const removed = keys.filter((key) => key % 3 === 0);
        await index.remove(removed);
        await index.flush();
        assert.deepEqual(await index.missing(removed), removed, `round ${round}: every removed key is gone`);
        assert.deepEqual(await index.missing(keys.filter((key) => key % 3 !== 0)), [], `round ${round}: the rest went in`);
        assert.notEqual((await index.search(vectorOf(removed[0]!), 1))[0]?.key, removed[0]);
      }
    } finally {
      await index.close();
    }
  });

  for (const searchThreads of [1, 2]) test(`in the index thread (${searchThreads} search threads), the vectors a split hands back stay searchable until they are in the partitions`, async () => {
    const dir = freshDir();
    const index = ThreadedVectorIndex.open(dir, 'm', DIMENSION, { ...PARAMETERS, searchThreads });
    try {
      assert.equal(await index.loaded, false);
      const keys = range(1, 2601);
      for (let from = 0; from < keys.length; from += 200) {
        const slice = keys.slice(from, from + 200);
        await index.add(slice, slice.map((key) => vectorOf(key)));
        // Searchable once added, whether in the first graph, waiting, or in a partition.
        for (const key of [slice[0]!, slice.at(-1)!]) assert.equal((await index.search(vectorOf(key), 1))[0]?.key, key);
      }
      await index.flush();
      assert.equal(index.size(), keys.length);
      assert.equal(index.waiting(), 0);
      assert.equal((await index.graphParameters()).partitions, PARTITIONS);
      assert.deepEqual(await index.missing(keys), []);
      for (const key of [1, 1300, 2600]) assert.equal((await index.search(vectorOf(key), 1))[0]?.key, key);
      await index.save();
    } finally {
      await index.close();
    }
    const reopened = ThreadedVectorIndex.open(dir, 'm', DIMENSION, { ...PARAMETERS, searchThreads });
    try {
      assert.equal(await reopened.loaded, true);
      assert.equal((await reopened.graphParameters()).partitions, PARTITIONS);
      assert.equal(reopened.size(), 2600);
      assert.deepEqual(await reopened.missing(range(1, 2601)), [], 'both threads loaded their partitions');
      for (const key of [1, 1300, 2600]) assert.equal((await reopened.search(vectorOf(key), 1))[0]?.key, key);
    } finally {
      await reopened.close();
    }
  });

  for (const searchThreads of [1, 2]) test(`in the index thread (${searchThreads} search threads), an index saved without its route sample counts the sampled keys missing until they are added again`, async () => {
    const dir = freshDir();
    const parameters = { ...PARAMETERS, searchThreads };
    const keys = range(1, 2601);
    const first = ThreadedVectorIndex.open(dir, 'm', DIMENSION, parameters);
    try {
      await first.add(keys, keys.map((key) => vectorOf(key)));
      await first.flush();
      assert.deepEqual(await first.missing(keys), []);
      await first.save();
    } finally {
      await first.close();
    }
    // As a store indexed before the sample existed: partitions saved, no sample.
    rmSync(join(dir, 'partitions', 'route'), { recursive: true, force: true });
    const sampled = keys.filter((key) => key % 64 === 0);
    const reopened = ThreadedVectorIndex.open(dir, 'm', DIMENSION, parameters);
    try {
      assert.equal(await reopened.loaded, true);
      assert.deepEqual((await reopened.missing(keys)).sort((a, b) => a - b), sampled, 'every 64th key, whichever thread holds it');
      // What the start's catch-up does with missing keys: adds their stored vectors again.
      await reopened.add(sampled, sampled.map((key) => vectorOf(key)));
      await reopened.flush();
      assert.deepEqual(await reopened.missing(keys), []);
      assert.equal(reopened.size(), keys.length, 'each once');
      await reopened.save();
    } finally {
      await reopened.close();
    }
    const again = ThreadedVectorIndex.open(dir, 'm', DIMENSION, parameters);
    try {
      assert.deepEqual(await again.missing(keys), [], 'the filled sample was saved');
    } finally {
      await again.close();
    }
  });

  test('the seeding graph finds every vector by a search for the vector itself, build after build', () => {
    // The tests' fake embedder's small bag-of-words vectors, full of near ties, where usearch's concurrent inserts
    // left some vectors unreachable in most builds; the index thread asks for two insert threads.
    const embedder = new FakeBridge();
    const vocabulary = 'river mountain engine garden violin market winter coffee ladder silver planet harbor pencil'.split(' ');
    const keys = range(1, 401);
    const vectors = keys.map((key) => Float32Array.from(embedder.embed(
      [...range(0, 3 + (key % 4)).map((w) => vocabulary[(key * 7 + w * 5) % vocabulary.length]!), `note${key}`].join(' '))));
    for (let build = 0; build < 5; build += 1) {
      const { index } = PartitionedVectorIndex.open(freshDir(), 'm', embedder.dimension, { ...DEFAULT_HNSW_PARAMETERS, searchThreads: 1 });
      assert.equal(index.layout(), 'seeding');
      for (let from = 0; from < keys.length; from += 64) {
        const slice = keys.slice(from, from + 64);
        index.add(slice, matrixOf(slice, (key) => vectors[key - 1]!), 2);
      }
      const lost = keys.filter((key) => {
        const found = index.search(vectors[key - 1]!, 10);
        // A vector equal to another may be answered by its twin: that one is found.
        return !found.some((item) => item.key === key || item.score >= 1 - 1e-6);
      });
      assert.deepEqual(lost, [], `build ${build}: vectors no search for themselves reaches`);
    }
  });
});
