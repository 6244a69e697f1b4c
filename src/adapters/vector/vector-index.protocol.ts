import type { HnswParameters } from './usearch-vector.index.js';

/** Messages between ThreadedVectorIndex (request thread) and usearch-index.worker.ts (index thread). */
export type IndexRequest =
  | { op: 'open'; dir: string; model: string; dimension: number; parameters: HnswParameters }
  | { op: 'parameters' }
  | { op: 'add'; keys: number[]; matrix: Float32Array }
  | { op: 'remove'; keys: number[] }
  | { op: 'search'; query: Float32Array; k: number }
  | { op: 'missing'; keys: number[] }
  | { op: 'save' }
  | { op: 'clear' };

export type IndexReply =
  | { id: number; ok: true; size: number; value: unknown }
  | { id: number; ok: false; size: number; error: string };

export interface SearchReply {
  keys: number[];
  scores: number[];
}
