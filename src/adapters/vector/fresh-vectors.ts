import usearch from 'usearch';
import { ownBuffer } from './own-buffer.js';
import type { ScoredKey } from '../../domain/search.js';

interface FreshBatch {
  keys: readonly number[];
  /** Row i is keys[i]'s vector; its own buffer from offset 0 once a search has compacted it. */
  matrix: Float32Array;
  /** Rows before this one have gone into the graph. */
  next: number;
  /** Rows dropped from the front of keys and matrix by compaction: row i here was row base + i as pushed. */
  base: number;
  /** Rows still holding their key's waiting vector (all at or after `next`); the rest are skipped. */
  live: number;
}

/** Rows of one pushed batch that a slice covers, from the batch's first waiting row (skipped keys included). */
interface SlicePart {
  batch: FreshBatch;
  rows: number;
}

/** The oldest waiting keys, across as many batches as it takes, for one insert into the graph (see `take` and `commit`). */
export interface FreshSlice {
  keys: number[];
  matrix: Float32Array;
  parts: SlicePart[];
}

/**
 * Vectors the index thread has accepted and not yet inserted into the HNSW graph. At a million vectors an
 * insert costs about a millisecond, so a busy pipeline keeps thousands waiting; searches scan them exactly
 * (usearch's SIMD brute force: about 1 ms for 8,192 vectors of 768 floats) and so find a message as soon as
 * it is embedded, not when the graph gets to it. First in, first out.
 */
export class FreshVectors {
  private batches: FreshBatch[] = [];
  /**
   * Each waiting key's newest row (its batch, and its index in the batch's key list as pushed): an older copy
   * of a re-added key, in an earlier batch or earlier in the same one, or a removed key, is skipped.
   */
  private readonly owner = new Map<number, { batch: FreshBatch; row: number }>();

  constructor(readonly dimension: number) {}

  /** Vectors waiting for the graph. */
  get size(): number {
    return this.owner.size;
  }

  has(key: number): boolean {
    return this.owner.has(key);
  }

  /** `matrix` holds one row of `dimension` floats per key. */
  push(keys: readonly number[], matrix: Float32Array): void {
    if (keys.length === 0) return;
    const batch: FreshBatch = { keys, matrix, next: 0, base: 0, live: 0 };
    this.batches.push(batch);
    keys.forEach((key, row) => {
      this.release(key);
      this.owner.set(key, { batch, row });
      batch.live += 1;
    });
  }

  remove(keys: readonly number[]): void {
    for (const key of keys) this.release(key);
  }

  clear(): void {
    this.batches = [];
    this.owner.clear();
  }

  /**
   * Up to `count` of the oldest waiting vectors, for one insert into the graph; they stay searchable here
   * until `commit`. Null when nothing waits. A slice runs on into the next batches, so that a multi-threaded
   * insert gets enough vectors to share among its threads whatever size the pipeline pushes.
   */
  take(count: number): FreshSlice | null {
    const keys: number[] = [];
    const parts: Array<SlicePart & { owned: number[] }> = [];
    for (const batch of this.batches) {
      if (keys.length >= count) break;
      const owned: number[] = [];
      let row = batch.next;
      // Skipped rows cost the slice nothing; it goes on to the next batch only once this one is covered.
      for (; row < batch.keys.length && keys.length < count; row += 1) {
        if (!this.owns(batch, row)) continue;
        keys.push(batch.keys[row]!);
        owned.push(row);
      }
      parts.push({ batch, rows: row - batch.next, owned });
      if (row < batch.keys.length) break;
    }
    if (keys.length === 0) {
      // Nothing but skipped rows (removed or re-added keys): they leave, and nothing waits.
      for (const part of parts) this.advance(part.batch, part.batch.next + part.rows);
      return null;
    }
    const only = parts.length === 1 ? parts[0]! : null;
    const matrix = only && only.owned.length === only.rows
      ? only.batch.matrix.subarray(only.batch.next * this.dimension, (only.batch.next + only.rows) * this.dimension)
      : this.rowsOf(parts);
    return { keys, matrix, parts };
  }

  /** The slice is in the graph now: it stops waiting here (a key re-added or removed meanwhile keeps its newer state). */
  commit(slice: FreshSlice): void {
    const batches = new Set(slice.parts.map((part) => part.batch));
    for (const key of slice.keys) {
      const owner = this.owner.get(key);
      if (owner && batches.has(owner.batch)) this.release(key);
    }
    // Oldest first, so that each finished batch is the first in line when it leaves.
    for (const part of slice.parts) this.advance(part.batch, part.batch.next + part.rows);
  }

  /** The k waiting vectors nearest `query` by exact cosine similarity, best first. */
  search(query: Float32Array, k: number): ScoredKey[] {
    if (k <= 0 || this.owner.size === 0) return [];
    const found: ScoredKey[] = [];
    for (const batch of this.batches) {
      const rows = batch.keys.length - batch.next;
      if (batch.live === 0) continue;
      // usearch's exactSearch reads a typed array from the start of its buffer, ignoring its offset.
      if (batch.next > 0) this.compact(batch);
      // Skipped keys (removed, or re-added in a later batch) may take places: ask for enough to fill k anyway.
      const count = Math.min(rows, k + rows - batch.live);
      const matches = usearch.exactSearch(batch.matrix, ownBuffer(query), this.dimension, count, usearch.MetricKind.Cos, 1) as
        { keys: BigUint64Array; distances: Float32Array };
      for (let i = 0; i < matches.keys.length; i += 1) {
        const row = Number(matches.keys[i]);
        // usearch's cosine distance is 1 - similarity.
        if (this.owns(batch, row)) found.push({ key: batch.keys[row]!, score: 1 - matches.distances[i]! });
      }
    }
    return found.sort((a, b) => b.score - a.score).slice(0, k);
  }

  /** Drops the rows already in the graph, so that the waiting ones start the batch's own buffer. */
  private compact(batch: FreshBatch): void {
    batch.matrix = batch.matrix.slice(batch.next * this.dimension);
    batch.keys = batch.keys.slice(batch.next);
    batch.base += batch.next;
    batch.next = 0;
  }

  /** Whether row `row` of the batch holds its key's current waiting vector. */
  private owns(batch: FreshBatch, row: number): boolean {
    const owner = this.owner.get(batch.keys[row]!);
    return owner !== undefined && owner.batch === batch && owner.row === batch.base + row;
  }

  /** The key stops waiting (removed, re-added, or in the graph): its row no longer counts as live. */
  private release(key: number): void {
    const owner = this.owner.get(key);
    if (!owner) return;
    owner.batch.live -= 1;
    this.owner.delete(key);
  }

  /** The owned rows of the slice's parts, copied in order into one matrix. */
  private rowsOf(parts: ReadonlyArray<{ batch: FreshBatch; owned: readonly number[] }>): Float32Array {
    const matrix = new Float32Array(parts.reduce((sum, part) => sum + part.owned.length, 0) * this.dimension);
    let at = 0;
    for (const { batch, owned } of parts) {
      for (const row of owned) {
        matrix.set(batch.matrix.subarray(row * this.dimension, (row + 1) * this.dimension), at * this.dimension);
        at += 1;
      }
    }
    return matrix;
  }

  private advance(batch: FreshBatch, end: number): void {
    batch.next = end;
    if (batch.next >= batch.keys.length && this.batches[0] === batch) this.batches.shift();
  }
}
