import { test } from 'node:test';
import assert from 'node:assert/strict';
import { DEFAULT_PROJECTION_TARGET, learnProjection, projectRows, subspaceWidths, type Projection } from './projection.js';

/** A deterministic generator of numbers in [-0.5, 0.5). */
function numbers(seed: number): () => number {
  let state = seed;
  return () => { state = (state * 1103515245 + 12345) % 2147483648; return state / 2147483648 - 0.5; };
}

/** `count` rows of `dimension` floats, each a mix of `basis`'s rows plus `noise` in every coordinate. */
function rowsIn(basis: Float32Array[], count: number, dimension: number, noise: number, seed = 7): Float32Array {
  const next = numbers(seed);
  const matrix = new Float32Array(count * dimension);
  for (let r = 0; r < count; r += 1) {
    for (const direction of basis) {
      const weight = next();
      for (let j = 0; j < dimension; j += 1) matrix[r * dimension + j]! += weight * direction[j]!;
    }
    for (let j = 0; j < dimension; j += 1) matrix[r * dimension + j]! += noise * next();
  }
  return matrix;
}

/** `count` random directions of `dimension` floats. */
function directions(count: number, dimension: number, seed = 3): Float32Array[] {
  const next = numbers(seed);
  return Array.from({ length: count }, () => Float32Array.from({ length: dimension }, next));
}

const dot = (a: Float32Array, b: Float32Array) => a.reduce((sum, x, i) => sum + x * b[i]!, 0);
const row = (matrix: Float32Array, r: number, dimension: number) => matrix.subarray(r * dimension, (r + 1) * dimension);

/** Rows in the projection's subspace keep their products (hence cosines) through it. */
function assertProductsKept(projection: Projection, rows: Float32Array): void {
  const { from, to } = projection;
  const projected = projectRows(projection, rows);
  const count = rows.length / from;
  for (let a = 0; a < count; a += 1) {
    for (let b = a; b < count; b += 1) {
      const before = dot(row(rows, a, from), row(rows, b, from));
      const after = dot(row(projected, a, to), row(projected, b, to));
      assert.ok(Math.abs(before - after) < 1e-3 * Math.max(1, Math.abs(before)), `rows ${a} and ${b}: ${before} against ${after}`);
    }
  }
}

test('projectRows gives each row\'s product with every direction, in the directions\' order', () => {
  const from = 24;
  const components = rowsIn(directions(24, from), 5, from, 1, 11);
  const projection: Projection = { from, to: 5, components };
  const matrix = rowsIn(directions(24, from, 5), 9, from, 1, 13);
  const projected = projectRows(projection, matrix);
  assert.equal(projected.length, 9 * 5);
  for (let r = 0; r < 9; r += 1) {
    for (let c = 0; c < 5; c += 1) {
      assert.ok(Math.abs(projected[r * 5 + c]! - dot(row(matrix, r, from), row(components, c, from))) < 1e-5, `row ${r}, direction ${c}`);
    }
  }
  assert.equal(projectRows(projection, new Float32Array(0)).length, 0);
});

test('vectors that lie in a few directions are projected onto as few as the target allows, keeping their products', () => {
  const dimension = 96;
  const sample = rowsIn(directions(10, dimension), 600, dimension, 0);
  const projection = learnProjection({ matrix: sample, dimension });
  assert.ok(projection, 'ten directions of 96 are worth a projection');
  assert.equal(projection.from, dimension);
  assert.equal(projection.to, 32, 'the fewest multiple of 32 holding the ten');
  // In the sample's subspace the projection loses nothing: products (hence cosines) are kept.
  const fresh = rowsIn(directions(10, dimension), 20, dimension, 0, 99);
  assertProductsKept(projection, fresh);
});

test('the kept directions hold the target share of the energy, strongest first', () => {
  const dimension = 128;
  // Three strong directions and weak noise everywhere: 0.95 of the energy is in the strong ones.
  const sample = rowsIn(directions(3, dimension).map((d) => d.map((x) => x * 4)), 1000, dimension, 0.05);
  const projection = learnProjection({ matrix: sample, dimension }, { ...DEFAULT_PROJECTION_TARGET, multiple: 1 });
  assert.equal(projection?.to, 3);
  const energy = (rows: Float32Array) => rows.reduce((sum, x) => sum + x * x, 0);
  const projected = projectRows(projection!, sample);
  assert.ok(energy(projected) >= 0.95 * energy(sample), 'the projection keeps the share asked for');
  const byDirection = [0, 1, 2].map((c) => Array.from({ length: 1000 }, (_, r) => projected[r * 3 + c]! ** 2).reduce((a, b) => a + b, 0));
  assert.ok(byDirection[0]! >= byDirection[1]! && byDirection[1]! >= byDirection[2]!, 'strongest direction first');
});

test('no projection for a spectrum too flat to pay, nor from fewer rows than dimensions', () => {
  const dimension = 64;
  const flat = rowsIn([], 2000, dimension, 1);
  assert.equal(learnProjection({ matrix: flat, dimension }), null, 'noise needs most of its directions');
  const few = rowsIn(directions(4, dimension), 40, dimension, 0);
  assert.equal(learnProjection({ matrix: few, dimension }), null);
  assert.equal(learnProjection({ matrix: new Float32Array(200 * dimension), dimension }), null, 'all zeros');
});

test('past 256 dimensions the directions are found in narrower subspaces first, with the same outcome', () => {
  assert.deepEqual(subspaceWidths(768, 384, 32), [256, 416, 768]);
  assert.deepEqual(subspaceWidths(1536, 768, 32), [256, 800, 1536]);
  assert.deepEqual(subspaceWidths(96, 48, 32), [96], 'small vectors: the exact decomposition only');
  const dimension = 512;
  // Forty directions with weak noise: a subspace of 256 holds them, and what it keeps is what the exact one would.
  const basis = directions(40, dimension, 17);
  const sample = rowsIn(basis, 1200, dimension, 0.02, 23);
  const projection = learnProjection({ matrix: sample, dimension });
  assert.ok(projection, 'forty directions of 512 are worth a projection');
  assert.equal(projection.to, 64, 'the fewest multiple of 32 holding the forty');
  const energy = (rows: Float32Array) => rows.reduce((sum, x) => sum + x * x, 0);
  assert.ok(energy(projectRows(projection, sample)) >= 0.95 * energy(sample), 'the projection keeps the share asked for');
  const fresh = rowsIn(basis, 20, dimension, 0, 99);
  assertProductsKept(projection, fresh);
  // Noise in 512 dimensions: the second subspace (288, trusting 256 = the largest share) already says no.
  assert.equal(learnProjection({ matrix: rowsIn([], 1200, dimension, 1, 29), dimension }), null);
});
