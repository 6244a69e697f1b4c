import type { VectorRows } from './centroids.js';
import { allDirections, leadingDirections, OVERSAMPLING, type SymmetricMatrix } from './principal-directions.js';
import { rowProducts } from './row-products.js';

/**
 * A linear map of vectors onto the directions that hold most of a sample's energy (principal components of the
 * uncentred sample: the graphs compare by cosine, which centring would change). The partition graphs hold projected
 * vectors, so their inserts and searches read and compare fewer numbers; the exact re-rank still uses the stored
 * full vectors, so the projection only has to keep each question's neighbourhood (bench/NOTES.md, session 22).
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
 * 4,096 or 16,384 vectors (bench/NOTES.md, session 22).
 */
export const DEFAULT_PROJECTION_TARGET: ProjectionTarget = { energyShare: 0.95, multiple: 32, largestShareOfDimensions: 0.5, sampleRows: 4096 };

/**
 * The projection onto the fewest directions (a multiple of `target.multiple`) holding `target.energyShare` of the
 * sample's energy; null when that would keep more than `target.largestShareOfDimensions` of them (a spectrum too
 * flat for a projection to pay) or the sample is too small to learn from.
 *
 * The directions are looked for in subspaces of growing width (subspaceWidths), each found faster than the exact
 * decomposition of the whole moment, which for 768 dimensions took 3.8-7 s of the index thread, holding every search
 * as long; the exact one is the last resort. A subspace settles the question once its trusted directions hold the
 * energy share, or are already more than the largest share of the dimensions.
 */
export function learnProjection(sample: VectorRows, target: ProjectionTarget = DEFAULT_PROJECTION_TARGET): Projection | null {
  const { dimension } = sample;
  const rows = evenRows(sample, target.sampleRows);
  const count = rows.length / dimension;
  if (count < dimension) return null;
  const moment = secondMoment(rows, dimension);
  let total = 0;
  for (let i = 0; i < dimension; i += 1) total += moment.values[i * dimension + i]!;
  if (!(total > 0)) return null;
  const largest = target.largestShareOfDimensions * dimension;
  for (const width of subspaceWidths(dimension, largest, target.multiple)) {
    const exact = width >= dimension;
    const { energies, vectors } = exact ? allDirections(moment) : leadingDirections(moment, width);
    const trusted = Math.min(energies.length, exact ? dimension : width - OVERSAMPLING);
    let kept = 0;
    let held = 0;
    while (kept < trusted && held < target.energyShare * total) held += Math.max(0, energies[kept++]!);
    if (held < target.energyShare * total) {
      if (trusted >= largest) return null;
      continue;
    }
    const to = Math.min(dimension, Math.ceil(kept / target.multiple) * target.multiple);
    if (to > largest) return null;
    // A sample of lower rank than `to` leaves a subspace short of rows: the exact decomposition has them all.
    if (to > energies.length) continue;
    return { from: dimension, to, components: vectors.slice(0, to * dimension) };
  }
  return null;
}

/**
 * Widths of the subspaces learnProjection tries, narrowest first: one that holds the builtin engine's 192 directions
 * (256), one wider than the largest projection allowed, then the whole space (exact); none as wide as the whole
 * space but the last.
 */
export function subspaceWidths(dimension: number, largest: number, multiple: number): number[] {
  const widths = [FIRST_SUBSPACE_WIDTH, Math.ceil(largest / multiple) * multiple + OVERSAMPLING].filter((width) => width < dimension);
  return [...new Set([...widths, dimension])];
}
/** 192 kept directions + 32 of margin + OVERSAMPLING (bench/NOTES.md, session 23). */
const FIRST_SUBSPACE_WIDTH = 256;

/** Each row of `matrix` projected: its products with the `to` directions, `to` floats a row (natively: rowProducts). */
export function projectRows(projection: Projection, matrix: Float32Array, threads = 1): Float32Array {
  return rowProducts(matrix, projection.components, projection.from, threads);
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
 * S^T S / n for the n rows S: the products of the sample's columns with each other (the columns as vectors of n
 * floats), computed natively; about 0.25 rather than 1.5 s for 4,096 rows of 768 in JavaScript.
 */
function secondMoment(rows: Float32Array, dimension: number): SymmetricMatrix {
  const count = rows.length / dimension;
  const columns = new Float32Array(rows.length);
  for (let r = 0; r < count; r += 1) {
    for (let j = 0; j < dimension; j += 1) columns[j * count + r] = rows[r * dimension + j]!;
  }
  const values = rowProducts(columns, columns, count, 0);
  for (let i = 0; i < values.length; i += 1) values[i]! /= count;
  return { size: dimension, values };
}
