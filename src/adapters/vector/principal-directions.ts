import { EigenvalueDecomposition, Matrix } from 'ml-matrix';
import { rowProducts } from './row-products.js';

/** A symmetric n x n matrix (a sample's second moment), row after row. */
export interface SymmetricMatrix {
  size: number;
  values: Float32Array;
}

/** Eigenvalues and their unit eigenvectors, strongest first. */
export interface Directions {
  /** Descending. */
  energies: Float64Array;
  /** `energies.length` rows of `size` floats, in the same order. */
  vectors: Float32Array;
}

/**
 * Every eigenpair of `matrix` (ml-matrix: Householder tridiagonalisation, then QL), strongest first. About 3.8 s for
 * 768 x 768 on a 2-core EPYC VM, 7 s on a slower one: its cost grows with the cube of the size.
 */
export function allDirections(matrix: SymmetricMatrix): Directions {
  const { size, values } = matrix;
  const decomposition = new EigenvalueDecomposition(
    new Matrix(Array.from({ length: size }, (_, i) => Array.from(values.subarray(i * size, (i + 1) * size)))),
    { assumeSymmetric: true });
  // Ascending: the strongest direction is the last.
  const ascending = decomposition.realEigenvalues;
  const eigenvectors = decomposition.eigenvectorMatrix;
  const energies = new Float64Array(size);
  const vectors = new Float32Array(size * size);
  for (let c = 0; c < size; c += 1) {
    const column = size - 1 - c;
    energies[c] = ascending[column]!;
    for (let j = 0; j < size; j += 1) vectors[c * size + j] = eigenvectors.get(j, column);
  }
  return { energies, vectors };
}

/**
 * The strongest eigenpairs of `matrix`, approximately, found in a random subspace of `width` dimensions (randomised
 * subspace iteration, Halko, Martinsson and Tropp 2011): the subspace is multiplied by the matrix and orthonormalised
 * POWER_PASSES times, which turns it towards the strongest directions, and the small width x width matrix it leaves
 * is decomposed exactly. The leading `width` - OVERSAMPLING pairs are close to the exact ones when the
 * spectrum falls (Ritz values: never above the exact eigenvalues); the weakest few of the subspace are not.
 * Deterministic: the random start is seeded.
 */
export function leadingDirections(matrix: SymmetricMatrix, width: number, seed = 1): Directions {
  const { size } = matrix;
  let basis = randomRows(width, size, seed);
  for (let pass = 0; pass < POWER_PASSES; pass += 1) basis = orthonormalRows(times(matrix, basis), size);
  const rank = basis.length / size;
  // The matrix seen from the subspace: entry (i, j) = basis_i . (matrix basis_j), symmetrised against rounding.
  const seen = rowProducts(times(matrix, basis), basis, size);
  const small = new Float32Array(rank * rank);
  for (let i = 0; i < rank; i += 1) {
    for (let j = 0; j < rank; j += 1) small[i * rank + j] = (seen[i * rank + j]! + seen[j * rank + i]!) / 2;
  }
  const inside = allDirections({ size: rank, values: small });
  // Back in the full space: each direction is its coordinates' mix of the basis rows.
  const vectors = new Float32Array(rank * size);
  for (let c = 0; c < rank; c += 1) {
    const target = vectors.subarray(c * size, (c + 1) * size);
    for (let i = 0; i < rank; i += 1) {
      const weight = inside.vectors[c * rank + i]!;
      const row = basis.subarray(i * size, (i + 1) * size);
      for (let j = 0; j < size; j += 1) target[j]! += weight * row[j]!;
    }
  }
  return { energies: inside.energies, vectors };
}

/** Directions at the weak end of a subspace that its approximation does not vouch for. */
export const OVERSAMPLING = 32;
/**
 * Multiplications of the random start by the matrix. On the bench corpus's 768-dimension vectors, width 256, the
 * leading 192 directions held 0.9368 / 0.9427 / 0.9429 of a 16,384-vector sample's energy after 1 / 2 / 3 passes
 * (exact: 0.9430), their span held 0.949 / 0.994 / 0.999 of the exact directions', in 1.5 / 1.6 / 2.2 s rather than
 * 7.0 s (bench/NOTES.md, session 23).
 */
const POWER_PASSES = 2;

/** matrix x each row of `rows` (the matrix is symmetric, so row i of the answer is matrix . rows_i). */
function times(matrix: SymmetricMatrix, rows: Float32Array): Float32Array {
  return rowProducts(rows, matrix.values, matrix.size);
}

/**
 * The rows made orthonormal (modified Gram-Schmidt in doubles; a second pass over each row changed neither the
 * energy kept nor the projected recall, at 25% more time; bench/NOTES.md, session 23); a row that the rows
 * before it already span is dropped, so a matrix of low rank gives fewer rows.
 */
function orthonormalRows(rows: Float32Array, width: number): Float32Array {
  const count = rows.length / width;
  const kept: Float64Array[] = [];
  for (let r = 0; r < count; r += 1) {
    const row = Float64Array.from(rows.subarray(r * width, (r + 1) * width));
    const before = norm(row);
    if (before === 0) continue;
    for (const basis of kept) {
      let dot = 0;
      for (let j = 0; j < width; j += 1) dot += row[j]! * basis[j]!;
      for (let j = 0; j < width; j += 1) row[j]! -= dot * basis[j]!;
    }
    const after = norm(row);
    if (after <= DEPENDENT * before) continue;
    for (let j = 0; j < width; j += 1) row[j]! /= after;
    kept.push(row);
  }
  const out = new Float32Array(kept.length * width);
  kept.forEach((row, r) => out.set(row, r * width));
  return out;
}
/** A row left with less than this share of its length by the rows before it adds no direction of its own. */
const DEPENDENT = 1e-6;

function norm(row: Float64Array): number {
  let sum = 0;
  for (let j = 0; j < row.length; j += 1) sum += row[j]! * row[j]!;
  return Math.sqrt(sum);
}

/** `count` rows of `width` numbers in [-0.5, 0.5) from a seeded generator (xorshift32). */
function randomRows(count: number, width: number, seed: number): Float32Array {
  let state = (seed * 2654435761) >>> 0 || 1;
  const rows = new Float32Array(count * width);
  for (let i = 0; i < rows.length; i += 1) {
    state ^= state << 13; state >>>= 0;
    state ^= state >>> 17;
    state ^= state << 5; state >>>= 0;
    rows[i] = state / 4294967296 - 0.5;
  }
  return rows;
}
