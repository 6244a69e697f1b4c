import type { ScoredKey } from '../domain/search.js';

/** What a save writes: every changed graph, or only those whose changes are worth a rewrite. */
export type SaveScope = 'every-change' | 'due';

/**
 * Approximate nearest-neighbour index over message vectors (cosine similarity).
 * Keys are message keys. Asynchronous: the index works off the request thread.
 */
export interface VectorIndex {
  readonly dimension: number;
  /** Vectors it answers for (in the graph or waiting for it), as of the last answer from the index. */
  size(): number;
  /** Of those, vectors added but not yet in the approximate graph: searched exactly meanwhile. */
  waiting(): number;
  /** Resolves when the vectors are searchable; it may wait while many vectors wait for the graph (backpressure). */
  add(keys: readonly number[], vectors: readonly Float32Array[]): Promise<void>;
  /** Resolves when every added vector is in the graph (before a final save). */
  flush(): Promise<void>;
  remove(keys: readonly number[]): Promise<void>;
  /** Up to k nearest keys with cosine similarity in -1..1, best first. */
  search(query: Float32Array, k: number): Promise<ScoredKey[]>;
  /** The keys of `keys` the index does not hold yet, or not wholly (adding them again completes them). */
  missing(keys: readonly number[]): Promise<number[]>;
  /**
   * Persists to disk so the next start need not rebuild: every change (the default), or only what is due
   * (the periodic save: when the changes are worth a rewrite; what is left is re-added after a crash).
   */
  save(scope?: SaveScope): Promise<void>;
  clear(): Promise<void>;
  close(): Promise<void>;
}

/**
 * Opens (or creates) the local index of a model without waiting for a saved
 * graph to load: `loaded` settles when it has (true) or when none was usable (false).
 * `onFailure` is told once if the index stops working for good before it is closed (its thread ended):
 * every call to it fails from then on, and its owner opens it again.
 */
export type OpenVectorIndex = (model: string, dimension: number, onFailure?: (error: Error) => void) =>
  { index: VectorIndex; loaded: Promise<boolean> };
