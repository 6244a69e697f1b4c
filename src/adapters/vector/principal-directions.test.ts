import { test } from 'node:test';
import assert from 'node:assert/strict';
import { allDirections, leadingDirections, type SymmetricMatrix } from './principal-directions.js';

/** sum_k energies[k] v_k v_k^T for orthonormal v_k (Gram-Schmidt of seeded random rows): its eigenpairs are known. */
function matrixWith(energies: number[], size: number): { matrix: SymmetricMatrix; vectors: Float64Array[] } {
  let state = 12345;
  const next = () => { state = (state * 1103515245 + 12345) % 2147483648; return state / 2147483648 - 0.5; };
  const vectors: Float64Array[] = [];
  while (vectors.length < energies.length) {
    const v = Float64Array.from({ length: size }, next);
    for (const u of vectors) { const d = u.reduce((s, x, j) => s + x * v[j]!, 0); u.forEach((x, j) => { v[j]! -= d * x; }); }
    const n = Math.hypot(...v);
    vectors.push(v.map((x) => x / n));
  }
  const values = new Float32Array(size * size);
  energies.forEach((energy, k) => {
    const v = vectors[k]!;
    for (let i = 0; i < size; i += 1) for (let j = 0; j < size; j += 1) values[i * size + j]! += energy * v[i]! * v[j]!;
  });
  return { matrix: { size, values }, vectors };
}

const along = (vectors: Float32Array, c: number, size: number, v: Float64Array) =>
  vectors.subarray(c * size, (c + 1) * size).reduce((s, x, j) => s + x * v[j]!, 0);

test('allDirections finds every eigenpair, strongest first', () => {
  const size = 40;
  const energies = Array.from({ length: size }, (_, k) => 2 ** -(k / 4));
  const { matrix, vectors } = matrixWith(energies, size);
  const found = allDirections(matrix);
  energies.forEach((energy, k) => {
    assert.ok(Math.abs(found.energies[k]! - energy) < 1e-4, `energy ${k}: ${found.energies[k]} against ${energy}`);
  });
  for (let k = 0; k < 10; k += 1) assert.ok(Math.abs(along(found.vectors, k, size, vectors[k]!)) > 0.999, `direction ${k}`);
});

test('leadingDirections finds the strongest pairs in a subspace: the leading ones match the exact decomposition', () => {
  const size = 300;
  // A falling spectrum over all 300 directions, as embeddings have.
  const energies = Array.from({ length: size }, (_, k) => 1 / (1 + k) ** 1.5);
  const { matrix, vectors } = matrixWith(energies, size);
  const width = 96;
  const found = leadingDirections(matrix, width);
  assert.equal(found.energies.length, width);
  let held = 0;
  let exact = 0;
  for (let k = 0; k < width - 32; k += 1) {
    assert.ok(found.energies[k]! <= energies[k]! * (1 + 1e-4), `a Ritz value is never above the exact one (${k})`);
    if (k < 32) assert.ok(found.energies[k]! >= energies[k]! * 0.99, `energy ${k}: ${found.energies[k]} against ${energies[k]}`);
    held += found.energies[k]!;
    exact += energies[k]!;
  }
  // What learnProjection counts on: the trusted directions' energy in all is the exact directions'.
  assert.ok(held >= 0.995 * exact, `the leading 64 hold ${held} against ${exact}`);
  // Each of the 32 strongest exact directions lies in the span of the 64 trusted ones found.
  for (let k = 0; k < 32; k += 1) {
    let inside = 0;
    for (let c = 0; c < width - 32; c += 1) inside += along(found.vectors, c, size, vectors[k]!) ** 2;
    assert.ok(inside > 0.99, `direction ${k}: ${inside} of it in the span found`);
  }
  assert.deepEqual(leadingDirections(matrix, width).vectors, found.vectors, 'seeded: the same answer each time');
});

test('leadingDirections of a matrix of low rank gives at most that many directions of energy', () => {
  const size = 120;
  const { matrix } = matrixWith([5, 3, 2, 1], size);
  const found = leadingDirections(matrix, 32);
  assert.ok(Math.abs(found.energies[0]! - 5) < 1e-3 && Math.abs(found.energies[3]! - 1) < 1e-3);
  for (let k = 4; k < found.energies.length; k += 1) assert.ok(Math.abs(found.energies[k]!) < 1e-3, `energy ${k}: ${found.energies[k]}`);
});
