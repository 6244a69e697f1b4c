import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import usearch from 'usearch';
import type { ScoredKey } from '../../domain/search.js';

type UsearchIndex = InstanceType<typeof usearch.Index>;

const INDEX_FILE = 'vectors.usearch';
const META_FILE = 'vectors.meta.json';

interface IndexMeta {
  model: string;
  dimension: number;
  size: number;
}

/**
 * HNSW index (usearch) over message vectors, stored as f16 in the data
 * directory. It is a cache: the vectors in SQLite are the truth, and the
 * owner adds what the saved file lacks. Synchronous: it runs inside the index
 * worker thread (usearch-index.worker.ts), never on the request event loop.
 */
export class UsearchVectorIndex {
  private index: UsearchIndex;
  private dirty = false;

  private constructor(
    private readonly dir: string,
    readonly model: string,
    readonly dimension: number,
  ) {
    this.index = UsearchVectorIndex.create(dimension);
  }

  /** Opens the saved index when it was built for this model and dimension; otherwise starts empty. */
  static open(dir: string, model: string, dimension: number): { index: UsearchVectorIndex; loaded: boolean } {
    mkdirSync(dir, { recursive: true });
    const vectorIndex = new UsearchVectorIndex(dir, model, dimension);
    const meta = readMeta(join(dir, META_FILE));
    if (meta?.model === model && meta.dimension === dimension && existsSync(join(dir, INDEX_FILE))) {
      try {
        vectorIndex.index.load(join(dir, INDEX_FILE));
        return { index: vectorIndex, loaded: true };
      } catch {
        vectorIndex.index = UsearchVectorIndex.create(dimension);
      }
    }
    return { index: vectorIndex, loaded: false };
  }

  private static create(dimension: number): UsearchIndex {
    return new usearch.Index({
      dimensions: dimension,
      metric: usearch.MetricKind.Cos,
      quantization: usearch.ScalarKind.F16,
      // Measured on 100,000 builtin vectors: M=16 gives recall@10 0.70 against exact search,
      // M=32 0.83 at ~1 ms a query; building costs twice as long, off the request path.
      connectivity: 32,
      expansion_add: 200,
      expansion_search: 128,
      multi: false,
    });
  }

  size(): number {
    return this.index.size();
  }

  contains(key: number): boolean {
    return this.index.contains(BigInt(key)) as boolean;
  }

  /** The keys of `keys` the index does not hold. */
  missing(keys: readonly number[]): number[] {
    if (keys.length === 0) return [];
    const present = this.index.contains(keys.map((key) => BigInt(key))) as boolean[];
    return keys.filter((_, i) => !present[i]);
  }

  /** `matrix` holds one row of `dimension` floats per key. */
  add(keys: readonly number[], matrix: Float32Array, threads = 1): void {
    if (keys.length === 0) return;
    // Re-adding a key would create a duplicate entry; replace instead.
    const bigKeys = keys.map((key) => BigInt(key));
    const present = this.index.contains(bigKeys) as boolean[];
    const stale = bigKeys.filter((_, i) => present[i]);
    if (stale.length > 0) this.index.remove(stale);
    this.index.add(new BigUint64Array(bigKeys), matrix, threads);
    this.dirty = true;
  }

  remove(keys: readonly number[]): void {
    if (keys.length === 0) return;
    this.index.remove(keys.map((key) => BigInt(key)));
    this.dirty = true;
  }

  search(query: Float32Array, k: number): ScoredKey[] {
    const size = this.index.size();
    if (size === 0 || k <= 0) return [];
    const matches = this.index.search(query, Math.min(k, size), 1);
    const results: ScoredKey[] = [];
    for (let i = 0; i < matches.keys.length; i += 1) {
      // usearch's cosine distance is 1 - similarity.
      results.push({ key: Number(matches.keys[i]), score: 1 - matches.distances[i]! });
    }
    return results;
  }

  save(): void {
    if (!this.dirty) return;
    const temp = join(this.dir, `${INDEX_FILE}.tmp`);
    this.index.save(temp);
    renameSync(temp, join(this.dir, INDEX_FILE));
    const meta: IndexMeta = { model: this.model, dimension: this.dimension, size: this.index.size() };
    writeFileSync(join(this.dir, `${META_FILE}.tmp`), JSON.stringify(meta));
    renameSync(join(this.dir, `${META_FILE}.tmp`), join(this.dir, META_FILE));
    this.dirty = false;
  }

  clear(): void {
    this.index = UsearchVectorIndex.create(this.dimension);
    rmSync(join(this.dir, INDEX_FILE), { force: true });
    rmSync(join(this.dir, META_FILE), { force: true });
    this.dirty = false;
  }
}

function readMeta(file: string): IndexMeta | null {
  try {
    return JSON.parse(readFileSync(file, 'utf8')) as IndexMeta;
  } catch {
    return null;
  }
}
