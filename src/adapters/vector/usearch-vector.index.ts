import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import usearch from 'usearch';
import type { ScoredKey } from '../../domain/search.js';

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
  /** M: neighbours a node keeps. A saved graph keeps the M it was built with; a new or rebuilt graph takes this one. */
  connectivity: number;
  /** Candidates explored while inserting: the graph's quality, and the bulk of an insert's cost. */
  expansionAdd: number;
  /** Candidates explored while searching (at least the number of results asked for). */
  expansionSearch: number;
  /** How the graph stores vectors. A saved graph keeps its own; a new or rebuilt graph takes this one. */
  quantization: IndexQuantization;
}

/**
 * Measured on real dialogue text (LoCoMo turns recombined, the data set's questions) and on the bench's generator,
 * recall@10 after the exact re-rank against an exact scan (bench/RESULTS.md, "Vector engines", session 37):
 * - expansion_add decides the graph's quality on real text, where questions sit far from every message (cosine
 *   0.5-0.7 to their best): at 100,000 messages M 64 / expansion_add 40 (the old default) found 0.972, M 32 / 128
 *   0.995 and M 16 / 128 0.990 (generator: 0.985), the last with the fastest searches (p50 2.4 ms in process).
 *   Quantization made no difference (f32 0.969, f16 0.969, i8 0.972 at M 64 / 40), so i8: a quarter of f32's memory.
 * - expansion_search 384: 0.990 at 100,000; at 1,000,000 real-text messages it finds 0.81 and 2,000 finds 0.90
 *   (p50 11 ms in process): no setting of one graph, nor LanceDB's IVF-PQ with refinement (0.845), nor the
 *   partitioned index (0.648) reaches 0.95 there.
 */
export const DEFAULT_HNSW_PARAMETERS: HnswParameters = { connectivity: 16, expansionAdd: 128, expansionSearch: 384, quantization: 'i8' };

/**
 * Whether the periodic save rewrites the changed graph. A save writes the graph whole (about 900 MB at a million
 * vectors), so rewriting it every 30 s while it grows would write the index again and again. It is due once its
 * unsaved changes reach DUE_SHARE of its size, or once it has been passed over DUE_AFTER_SKIPS times. What a crash
 * leaves unsaved is added again from the stored vectors by the next start's catch-up, in the background: at most
 * about DUE_SHARE of the index, plus what changed in the last DUE_AFTER_SKIPS periods. A stop saves everything.
 */
export function saveIsDue(changes: number, size: number, passedOver: number): boolean {
  return changes >= DUE_SHARE * size || passedOver >= DUE_AFTER_SKIPS;
}
const DUE_SHARE = 0.1;
const DUE_AFTER_SKIPS = 20;

/**
 * Candidates a search explores: the configured expansion_search, or 2 x sqrt(size) when more (at most 4,096). A graph's
 * recall falls as it grows, for questions far from every message most: on real dialogue text M 16 / 128 found 0.990 of
 * the exact ten at 100,000 exploring 384, and at 1,000,000 0.81 exploring 384, 0.88 exploring 1,200 and 0.90 exploring
 * 2,000 (p50 2.4 / 9.9 / 11 ms in process; bench/RESULTS.md, "Vector engines").
 */
export function explorationFor(size: number, configured: number): number {
  return Math.max(configured, Math.min(MAX_EXPLORATION, Math.ceil(2 * Math.sqrt(size))));
}
const MAX_EXPLORATION = 4096;

/** Files of the partitioned index (sessions 16-36), removed at open: its vectors go into one graph again. */
const LEGACY_FILES = ['partitions', 'route', 'vectors.seed.f32'];

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
    for (const legacy of LEGACY_FILES) rmSync(join(dir, legacy), { recursive: true, force: true });
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

  /** The `k` best by the graph's (approximate) scores, having explored at least explorationFor(size) candidates. */
  search(query: Float32Array, k: number): ScoredKey[] {
    const size = this.index.size();
    if (size === 0 || k <= 0) return [];
    // usearch explores max(k, expansion_search), fixed when the graph is made: asking for more explores more.
    const explored = Math.min(size, Math.max(k, explorationFor(size, this.configured.expansionSearch)));
    const matches = this.index.search(query, explored, 1);
    const results: ScoredKey[] = [];
    for (let i = 0; i < Math.min(k, matches.keys.length); i += 1) {
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
