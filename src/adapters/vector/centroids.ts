import usearch from 'usearch';
import { ownBuffer } from './own-buffer.js';

/** Rows of `dimension` floats, one after another. */
export interface VectorRows {
  matrix: Float32Array;
  dimension: number;
}

/**
 * Rows from which the centroid products run on every core. usearch starts its threads on every call: for one
 * question's 32 products that took 84 µs against 9 µs on the calling thread (p50, 2-core VM; more when the other
 * core is busy, as the thread waits for it), in every search of a partitioned index.
 */
const THREADED_FROM_ROWS = 64;

/** The `k` nearest of `centroids` (by cosine) to each row of `vectors`: row i's are keys[i * k .. i * k + k). */
export function nearestCentroids(centroids: VectorRows, vectors: Float32Array, k: number): BigUint64Array {
  const threads = vectors.length / centroids.dimension >= THREADED_FROM_ROWS ? 0 : 1;
  const found = usearch.exactSearch(ownBuffer(centroids.matrix), ownBuffer(vectors), centroids.dimension, k, usearch.MetricKind.Cos, threads) as
    { keys: BigUint64Array };
  return found.keys;
}

/**
 * The centroids nearest at least `share` of `rows` (and at least one row): the regions a sample of vectors sits in,
 * as a filter's sample names the partitions holding its matches.
 */
export function centroidsHolding(centroids: VectorRows, rows: Float32Array, share: number): Set<number> {
  const counts = new Map<number, number>();
  const owners = nearestCentroids(centroids, rows, 1);
  for (const owner of owners) counts.set(Number(owner), (counts.get(Number(owner)) ?? 0) + 1);
  const least = Math.max(1, share * owners.length);
  return new Set([...counts].filter(([, count]) => count >= least).map(([owner]) => owner));
}

/**
 * Spherical k-means: `count` unit centroids of the rows of `sample`, each the normalized mean of the rows
 * nearest it. Starts from rows spread evenly through the sample (in the order vectors arrived, so from
 * different conversations and times); deterministic. A centroid no row chooses keeps its starting row.
 */
export function trainCentroids(sample: VectorRows, count: number, iterations = 10): VectorRows {
  const { matrix, dimension } = sample;
  const rows = matrix.length / dimension;
  if (rows < count) throw new Error(`${count} centroids need at least ${count} sample rows, not ${rows}`);
  const centroids = new Float32Array(count * dimension);
  for (let c = 0; c < count; c += 1) {
    const row = Math.floor((c * rows) / count);
    centroids.set(matrix.subarray(row * dimension, (row + 1) * dimension), c * dimension);
  }
  normalizeRows(centroids, dimension);
  for (let iteration = 0; iteration < iterations; iteration += 1) {
    const owners = nearestCentroids({ matrix: centroids, dimension }, matrix, 1);
    const sums = new Float64Array(count * dimension);
    const members = new Uint32Array(count);
    for (let row = 0; row < rows; row += 1) {
      const c = Number(owners[row]);
      members[c]! += 1;
      const norm = rowNorm(matrix, row, dimension) || 1;
      for (let j = 0; j < dimension; j += 1) sums[c * dimension + j]! += matrix[row * dimension + j]! / norm;
    }
    for (let c = 0; c < count; c += 1) {
      if (members[c] === 0) continue;
      for (let j = 0; j < dimension; j += 1) centroids[c * dimension + j] = sums[c * dimension + j]!;
    }
    normalizeRows(centroids, dimension);
  }
  return { matrix: centroids, dimension };
}

function rowNorm(matrix: Float32Array, row: number, dimension: number): number {
  let sum = 0;
  for (let j = row * dimension, end = j + dimension; j < end; j += 1) sum += matrix[j]! * matrix[j]!;
  return Math.sqrt(sum);
}

function normalizeRows(matrix: Float32Array, dimension: number): void {
  for (let row = 0; row < matrix.length / dimension; row += 1) {
    const norm = rowNorm(matrix, row, dimension);
    if (norm === 0) continue;
    for (let j = row * dimension, end = j + dimension; j < end; j += 1) matrix[j] = matrix[j]! / norm;
  }
}

/**
 * Splits the centroids between two threads so that near ones sit on different threads: a search asks the partitions
 * of the centroids nearest the question, which are near each other, and two threads then share its work. A local
 * search for a large cut of the centroids' similarity graph (each pair weighted by its positive cosine to the 4th
 * power, so the nearest pairs count most), from alternating colours; deterministic. Returns each centroid's thread.
 *
 * At a million vectors in 32 partitions (bench/NOTES.md, session 28: a timing of the service's
 * six graph searches, 300 questions, one thread each): the slower thread's share p50 1.40 ms against 2.39 ms on one
 * thread, 1.65 ms with partitions split by parity and 1.23 ms for the best split of each search.
 */
export function twoColouring(centroids: VectorRows): number[] {
  const { matrix, dimension } = centroids;
  const count = matrix.length / dimension;
  const weight = Array.from({ length: count }, (_, a) => Array.from({ length: count }, (_, b) => {
    if (a === b) return 0;
    let dot = 0;
    for (let j = 0; j < dimension; j += 1) dot += matrix[a * dimension + j]! * matrix[b * dimension + j]!;
    return Math.max(0, dot) ** 4;
  }));
  const colour = Array.from({ length: count }, (_, c) => c % 2);
  // Each move strictly raises the cut's weight, so the search ends; the cap only bounds ties of floating-point sums.
  for (let changed = true, rounds = 0; changed && rounds < 100; rounds += 1) {
    changed = false;
    for (let a = 0; a < count; a += 1) {
      let same = 0;
      let other = 0;
      for (let b = 0; b < count; b += 1) {
        if (colour[b] === colour[a]) same += weight[a]![b]!; else other += weight[a]![b]!;
      }
      if (same > other) { colour[a] = 1 - colour[a]!; changed = true; }
    }
  }
  return colour;
}
