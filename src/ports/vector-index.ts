import type { ScoredKey } from '../domain/search.js';

/** Approximate nearest-neighbour index over message vectors (cosine similarity). Keys are message keys. */
export interface VectorIndex {
  readonly dimension: number;
  size(): number;
  add(keys: readonly number[], vectors: readonly Float32Array[]): void;
  remove(keys: readonly number[]): void;
  /** Up to k nearest keys with cosine similarity in -1..1, best first. */
  search(query: Float32Array, k: number): ScoredKey[];
  /** Persists to disk so the next start need not rebuild. */
  save(): void;
  clear(): void;
}

/** Opens (or creates) the local index of a model; `loaded` tells whether a saved index was found. */
export type OpenVectorIndex = (model: string, dimension: number) => { index: VectorIndex; loaded: boolean };
