import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import usearch from 'usearch';
import type { ScoredKey } from '../../domain/search.js';
import { DEFAULT_PROJECTION_TARGET } from './projection.js';

type UsearchIndex = InstanceType<typeof usearch.Index>;
type ScalarKind = (typeof usearch.ScalarKind)[keyof typeof usearch.ScalarKind];

const INDEX_FILE = 'vectors.usearch';
const META_FILE = 'vectors.meta.json';

interface IndexMeta {
  model: string;
  dimension: number;
  size: number;
  /** The graph's connectivity (M) as built; informative: usearch's saved file carries it. */
  connectivity?: number;
  /** The scalar kind the graph stores vectors as (read back unchecked); absent in files saved before it was configurable. */
  quantization?: string;
}

/** How the graph can store each vector (search.index_quantization): the stored f32 vectors re-rank its candidates exactly either way. */
export const SCALAR_KINDS = { i8: usearch.ScalarKind.I8, f16: usearch.ScalarKind.F16 } as const satisfies Record<string, ScalarKind>;
export type IndexQuantization = keyof typeof SCALAR_KINDS;

/** A meta file's quantization: absent in graphs saved before it was configurable (f16); null if unknown. */
function savedQuantization(meta: IndexMeta): IndexQuantization | null {
  const value = meta.quantization ?? 'f16';
  return Object.hasOwn(SCALAR_KINDS, value) ? (value as IndexQuantization) : null;
}

/** HNSW graph parameters (config search.index_*). */
export interface HnswParameters {
  /**
   * M (neighbours a node keeps) of one graph holding every vector: a store's first graph while it seeds, or its only
   * one with `partitions: 1`. A saved graph keeps the M it was built with; a new or rebuilt graph takes this one.
   */
  connectivity: number;
  /** M of each partition graph (one region of the vector space), which routes as well with fewer neighbours. */
  partitionConnectivity: number;
  /** Candidates explored while inserting: the bulk of an insert's cost. */
  expansionAdd: number;
  /** Candidates explored while searching one graph of everything (at least the number of results asked for). */
  expansionSearch: number;
  /**
   * Candidates a partition graph explores while searching: what a search without a filter asks of the probed
   * partitions beyond the nearest two (partitionShares), and the least any partition's search explores.
   */
  partitionExpansion: number;
  /** How the graph stores vectors. A saved graph keeps its own; a new or rebuilt graph takes this one. */
  quantization: IndexQuantization;
  /** Graphs the index is split into once it has enough vectors to learn them from (PartitionedVectorIndex); 1 = one graph. */
  partitions: number;
  /** Partitions a search asks: those whose centroids are nearest the query. */
  probes: number;
  /**
   * Share of the vectors' energy the partition graphs keep when a split learns a projection (projection.ts); 0: the
   * graphs hold the vectors themselves. Learned once, with the centroids; a saved index keeps what it learned.
   */
  projectionEnergy: number;
  /**
   * Threads a search of the partitions runs on: 2 splits the partitions between the index thread and a second one
   * (twoColouring), so that one question's graph searches run on both; 1 keeps them all on the index thread.
   */
  searchThreads: number;
}

/**
 * Measured at 99,000 stored vectors with 100 questions (bench/NOTES.md, "HNSW graph parameters"), 116
 * candidates re-ranked exactly, one graph: M 64 / expansion_add 64 reached recall@10 0.985 against exact search at
 * 0.4 of the insert CPU of M 32 / 200 (0.978); M 16 / 64 gave 0.950. The seeding graph (up to 16,384 vectors)
 * needs M 64 too: at 12,000-16,384 vectors M 24 gave 0.958-0.974 over builds, M 64 0.989-1.000.
 * i8 rather than f16 (119,000 vectors, same questions): inserts at 0.57 of the CPU, saves 1,300 rather than 2,068
 * bytes a vector and searches faster, at recall 0.994 rather than 0.986; the exact re-rank makes its coarser
 * scores harmless. That saving pays for expansion_search 384 rather than 128: on the scale bench's harder
 * questions at 170,000 vectors, recall 0.943 rather than 0.893.
 * Partitioned (bench/NOTES.md, session 16: partition graphs of M 16, 24, 32 and 64, expansion_add 40 and 64),
 * each graph holds one region, so a sparser one routes as well. At 1,000,000 vectors, 6 of 32 partitions:
 * - partition M 24 rather than 64: recall@10 0.979 against 0.978, search p50 6.3 against 7.6 ms, 935 against
 *   1,240 MiB (M 16: 0.977, 5.6 ms); every M gave 0.979-0.981 at 100,000.
 * - expansion_add 40 rather than 64 (at M 24): 158 rather than 269 µs of CPU an insert for recall@10 0.976
 *   rather than 0.979; 0.980 / 0.979 at 100,000.
 * - partition expansion 48 rather than 64 (384 / 6 probes before; bench/NOTES.md, session 19): the graphs' part of
 *   a search p50 3.10 rather than 3.60 ms at recall@10 0.971 rather than 0.972, on a 1,070,000-vector store; 32 gave
 *   2.65 ms at 0.969.
 */
export const DEFAULT_HNSW_PARAMETERS: HnswParameters = {
  connectivity: 64, partitionConnectivity: 24, expansionAdd: 40, expansionSearch: 384, partitionExpansion: 48, quantization: 'i8',
  partitions: 32, probes: 6, projectionEnergy: DEFAULT_PROJECTION_TARGET.energyShare, searchThreads: 2,
};

/**
 * HNSW index (usearch) over message vectors, stored as i8 (or f16) in the data
 * directory. It is a cache: the vectors in SQLite are the truth, and the
 * owner adds what the saved file lacks. Synchronous: it runs inside the index
 * worker thread (usearch-index.worker.ts), never on the request event loop.
 */
export class UsearchVectorIndex {
  private index: UsearchIndex;
  /** Vectors added or removed since the graph was last written. */
  private unsaved = 0;
  /** Periodic saves that passed over this graph's unsaved changes (see saveIsDue). */
  private skippedSaves = 0;

  private constructor(
    private readonly dir: string,
    readonly model: string,
    readonly dimension: number,
    /** The configured parameters: what a new or cleared graph is built with. */
    private readonly configured: HnswParameters,
    /** The open graph's quantization: a saved graph's own, else the configured one. */
    private quantization: IndexQuantization = configured.quantization,
  ) {
    this.index = this.create();
  }

  /**
   * Opens the saved index when it was built for this model and dimension; otherwise starts empty. A saved
   * graph keeps the connectivity (usearch reads it from the file) and the quantization (from the meta file)
   * it was built with; the expansions, which the file does not hold, are the configured ones.
   */
  static open(
    dir: string, model: string, dimension: number, parameters: HnswParameters = DEFAULT_HNSW_PARAMETERS,
  ): { index: UsearchVectorIndex; loaded: boolean } {
    mkdirSync(dir, { recursive: true });
    const graph = UsearchVectorIndex.savedGraph(dir);
    if (graph && graph.model === model && graph.dimension === dimension) {
      const saved = new UsearchVectorIndex(dir, model, dimension, parameters, graph.quantization);
      try {
        saved.index.load(graph.file);
        return { index: saved, loaded: true };
      } catch {
        // Unreadable: start again with the configured parameters; the owner re-adds the stored vectors.
      }
    }
    return { index: new UsearchVectorIndex(dir, model, dimension, parameters), loaded: false };
  }

  /**
   * The graph saved in `dir`, as its meta file describes it; null without one, or when the meta file names a
   * quantization this version does not know (as unreadable as a damaged graph).
   */
  static savedGraph(dir: string): { file: string; model: string; dimension: number; quantization: IndexQuantization; size: number } | null {
    const meta = readMeta(join(dir, META_FILE));
    const quantization = meta && savedQuantization(meta);
    const file = join(dir, INDEX_FILE);
    if (!meta || !quantization || !existsSync(file)) return null;
    return { file, model: meta.model, dimension: meta.dimension, quantization, size: meta.size };
  }

  private create(): UsearchIndex {
    return new usearch.Index({
      dimensions: this.dimension,
      metric: usearch.MetricKind.Cos,
      quantization: SCALAR_KINDS[this.quantization],
      connectivity: this.configured.connectivity,
      expansion_add: this.configured.expansionAdd,
      expansion_search: this.configured.expansionSearch,
      multi: false,
    });
  }

  /** The graph's connectivity and quantization as built (a loaded graph's own), with the configured expansions. */
  graphParameters(): HnswParameters {
    return { ...this.configured, connectivity: this.index.connectivity(), quantization: this.quantization };
  }

  size(): number {
    return this.index.size();
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
    this.unsaved += keys.length;
  }

  remove(keys: readonly number[]): void {
    if (keys.length === 0) return;
    this.index.remove(keys.map((key) => BigInt(key)));
    this.unsaved += keys.length;
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

  /** Vectors added or removed since the graph was last written (0: the saved file is current). */
  unsavedChanges(): number {
    return this.unsaved;
  }

  /** Periodic saves that passed over the unsaved changes since the graph was last written. */
  savesSkipped(): number {
    return this.skippedSaves;
  }

  /** A periodic save leaves the unsaved changes for a later one. */
  skipSave(): void {
    this.skippedSaves += 1;
  }

  /** Writes the graph if it changed since it was last written; true when it did. */
  save(): boolean {
    if (this.unsaved === 0) return false;
    const temp = join(this.dir, `${INDEX_FILE}.tmp`);
    this.index.save(temp);
    renameSync(temp, join(this.dir, INDEX_FILE));
    const meta: IndexMeta = {
      model: this.model, dimension: this.dimension, size: this.index.size(), connectivity: this.index.connectivity(),
      quantization: this.quantization,
    };
    writeFileSync(join(this.dir, `${META_FILE}.tmp`), JSON.stringify(meta));
    renameSync(join(this.dir, `${META_FILE}.tmp`), join(this.dir, META_FILE));
    this.unsaved = 0;
    this.skippedSaves = 0;
    return true;
  }

  clear(): void {
    this.quantization = this.configured.quantization;
    this.index = this.create();
    UsearchVectorIndex.removeFiles(this.dir);
    this.unsaved = 0;
    this.skippedSaves = 0;
  }

  /** Deletes the saved graph in `dir`, if any. */
  static removeFiles(dir: string): void {
    rmSync(join(dir, INDEX_FILE), { force: true });
    rmSync(join(dir, META_FILE), { force: true });
  }
}

function readMeta(file: string): IndexMeta | null {
  try {
    return JSON.parse(readFileSync(file, 'utf8')) as IndexMeta;
  } catch {
    return null;
  }
}
