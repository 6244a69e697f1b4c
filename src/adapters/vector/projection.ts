import { EigenvalueDecomposition, Matrix } from 'ml-matrix';
import usearch from 'usearch';
import type { VectorRows } from './centroids.js';
import { ownBuffer } from './own-buffer.js';

/**
 * A linear map of vectors onto the directions that hold most of a sample's energy (principal components of the
 * uncentred sample: the graphs compare by cosine, which centring would change). The partition graphs hold projected
 * vectors, so their inserts and searches read and compare fewer numbers; the exact re-rank still uses the stored
 * full vectors, so the projection only has to keep each question's neighbourhood (docs/performance.md, session 22).
 */
export interface Projection {
  /** Dimension of the vectors it takes. */
  from: number;
  /** Dimension of the vectors it gives. */
  to: number;
  /** `to` rows of `from` floats: the directions, most energy first. */
  components: Float32Array;
}

/** What learnProjection keeps and when it declines. */
export interface ProjectionTarget {
  /** Share of the sample's energy (sum of squared coordinates) the kept directions hold. */
  energyShare: number;
  /** Dimensions are kept in multiples of this. */
  multiple: number;
  /** No projection when it would keep more than this share of the dimensions: too little to gain. */
  largestShareOfDimensions: number;
  /** Rows of the sample the directions are learned from, at most (an even pick). */
  sampleRows: number;
}

/**
 * The bench corpus's builtin-engine vectors hold 0.95 of their energy in about 180 of 768 directions; 192 kept
 * found recall@10 0.994 of the exact top ten among a flat search's 116 best (0.99 at 160), whether learned from
 * 4,096 or 16,384 vectors (docs/performance.md, session 22).
 */
export const DEFAULT_PROJECTION_TARGET: ProjectionTarget = { energyShare: 0.95, multiple: 32, largestShareOfDimensions: 0.5, sampleRows: 4096 };

/**
 * The projection onto the fewest directions (a multiple of `target.multiple`) holding `target.energyShare` of the
 * sample's energy; null when that would keep more than `target.largestShareOfDimensions` of them (a spectrum too
 * flat for a projection to pay) or the sample is too small to learn from.
 */
export function learnProjection(sample: VectorRows, target: ProjectionTarget = DEFAULT_PROJECTION_TARGET): Projection | null {
  const { dimension } = sample;
  const rows = evenRows(sample, target.sampleRows);
  const count = rows.length / dimension;
  if (count < dimension) return null;
  const moment = secondMoment(rows, dimension);
  const decomposition = new EigenvalueDecomposition(moment, { assumeSymmetric: true });
  // Ascending: the strongest direction is the last.
  const energies = decomposition.realEigenvalues.map((value) => Math.max(0, value)).reverse();
  const total = energies.reduce((sum, value) => sum + value, 0);
  if (total === 0) return null;
  let kept = 0;
  let held = 0;
  while (kept < dimension && held < target.energyShare * total) held += energies[kept++]!;
  const to = Math.min(dimension, Math.ceil(kept / target.multiple) * target.multiple);
  if (to > target.largestShareOfDimensions * dimension) return null;
  const vectors = decomposition.eigenvectorMatrix;
  const components = new Float32Array(to * dimension);
  for (let c = 0; c < to; c += 1) {
    const column = dimension - 1 - c;
    for (let j = 0; j < dimension; j += 1) components[c * dimension + j] = vectors.get(j, column);
  }
  return { from: dimension, to, components };
}

/**
 * Each row of `matrix` projected: `to` floats a row. usearch's exact search with the inner-product metric computes
 * every row's product with every direction natively (35-38 µs a 768-float row onto 192 directions on one thread,
 * against 360 µs in a JavaScript loop); asked for all `to` matches, it returns them best first, with distance 1 - product.
 */
export function projectRows(projection: Projection, matrix: Float32Array, threads = 1): Float32Array {
  const { from, to } = projection;
  const count = matrix.length / from;
  const projected = new Float32Array(count * to);
  if (count === 0) return projected;
  const found = usearch.exactSearch(ownBuffer(projection.components), ownBuffer(matrix), from, to, usearch.MetricKind.IP, threads) as
    { keys: BigUint64Array; distances: Float32Array };
  // The keys are direction numbers below 2^32: their low words (little-endian) are read without a BigInt each.
  const keys = new Uint32Array(found.keys.buffer, found.keys.byteOffset, found.keys.length * 2);
  for (let row = 0; row < count; row += 1) {
    for (let i = row * to, end = i + to; i < end; i += 1) projected[row * to + keys[2 * i]!] = 1 - found.distances[i]!;
  }
  return projected;
}

/** At most `limit` rows of the sample, spread evenly through it. */
function evenRows(sample: VectorRows, limit: number): Float32Array {
  const { matrix, dimension } = sample;
  const count = matrix.length / dimension;
  if (count <= limit) return matrix;
  const picked = new Float32Array(limit * dimension);
  for (let i = 0; i < limit; i += 1) {
    const row = Math.floor((i * count) / limit);
    picked.set(matrix.subarray(row * dimension, (row + 1) * dimension), i * dimension);
  }
  return picked;
}

/**
 * S^T S / n for the n rows S, computed as usearch's inner products of the sample's columns with each other (the
 * columns as vectors of n floats); about 0.25 rather than 1.5 s for 4,096 rows of 768 in JavaScript. The
 * eigendecomposition that follows is most of learning a projection: about 3.8 s for 768 dimensions, once a store.
 */
function secondMoment(rows: Float32Array, dimension: number): Matrix {
  const count = rows.length / dimension;
  const columns = new Float32Array(rows.length);
  for (let r = 0; r < count; r += 1) {
    for (let j = 0; j < dimension; j += 1) columns[j * count + r] = rows[r * dimension + j]!;
  }
  const found = usearch.exactSearch(columns, columns, count, dimension, usearch.MetricKind.IP, 0) as
    { keys: BigUint64Array; distances: Float32Array };
  const keys = new Uint32Array(found.keys.buffer, found.keys.byteOffset, found.keys.length * 2);
  const moment = new Matrix(dimension, dimension);
  for (let i = 0; i < dimension * dimension; i += 1) {
    moment.set(Math.floor(i / dimension), keys[2 * i]!, (1 - found.distances[i]!) / count);
  }
  return moment;
}
