import type { SaveScope } from '../../ports/vector-index.js';
import type { HnswParameters } from './usearch-vector.index.js';

/** Messages between ThreadedVectorIndex (request thread) and usearch-index.worker.ts (index thread). */
export type IndexRequest =
  | { op: 'open'; dir: string; model: string; dimension: number; parameters: HnswParameters; backlogLimit: number }
  | { op: 'parameters' }
  | { op: 'add'; keys: number[]; matrix: Float32Array }
  | { op: 'flush' }
  | { op: 'remove'; keys: number[] }
  | { op: 'search'; query: Float32Array; k: number }
  | { op: 'missing'; keys: number[] }
  | { op: 'save'; scope: SaveScope }
  | { op: 'clear' }
  /** Stops inserting (between slices) so the thread can be terminated outside a native call. */
  | { op: 'close' };

/** The id of an unrequested reply: a background insert into the graph failed. */
export const INSERT_FAILURE_ID = 0;
/** The id of an unrequested reply carrying the sizes after a slice went into the graph. */
export const SIZES_ID = -1;

/** Every reply carries the sizes: vectors searchable (graph and waiting) and those waiting for the graph. */
export type IndexReply =
  | { id: number; ok: true; size: number; waiting: number; value: unknown }
  | { id: number; ok: false; size: number; waiting: number; error: string };

export interface SearchReply {
  keys: number[];
  scores: number[];
}
