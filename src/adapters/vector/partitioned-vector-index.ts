import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ScoredKey } from '../../domain/search.js';
import type { SaveScope } from '../../ports/vector-index.js';
import { centroidsHolding, nearestCentroids, trainCentroids, twoColouring, type VectorRows } from './centroids.js';
import { DEFAULT_PROJECTION_TARGET, learnProjection, projectRows, type Projection } from './projection.js';
import { RouteSample } from './route-sample.js';
import { SeedVectors } from './seed-vectors.js';
import { DEFAULT_HNSW_PARAMETERS, UsearchVectorIndex, type HnswParameters } from './usearch-vector.index.js';

const PARTITIONS_DIR = 'partitions';
const PARTITIONS_META = 'partitions.json';
const CENTROIDS_FILE = 'centroids.f32';
const PROJECTION_FILE = 'projection.f32';
const SEED_FILE = 'vectors.seed.f32';
const ROUTE_DIR = 'route';
/** Vectors a partition is learned from, on average: the first graph splits once it holds partitions x this. */
export const SEED_VECTORS_PER_PARTITION = 512;
/**
 * The seeding graph inserts on one thread, whatever the caller asks. usearch's concurrent inserts leave vectors
 * that no search reaches, not even a search for the vector itself: building 4,000 of the bench corpus's vectors
 * (M 64, expansion_add 40, 64 a call), every two-thread build had some (21 in 5 builds), no one-thread build had any;
 * on the exactness test's 400 small vectors, 62 of 100 two-thread builds had some and 9 of 300 lost one of a
 * question's exact top 10, against none with one thread. Recall@10 of the bench's questions at 16,384 vectors was
 * 0.981 with one thread and 0.977-0.988 with two (bench/NOTES.md, session 17), and
 * the graph is the same on every build. A store spends its first 16,384 vectors here, so the insert time is small.
 */
const SEEDING_ADD_THREADS = 1;
/**
 * A partition graph inserts on one thread too; with two search threads, the two insert into their own partitions at
 * the same time. Two threads a graph left vectors that no search for themselves finds here as well (usearch issue
 * #735: a node is linked to before its lowest level has links of its own), and a partition's share of a slice (~64
 * vectors) is too small for a second thread to pay. Building the bench corpus's first 300,000 vectors in slices of
 * 2,048 (bench/NOTES.md, session 29, at 1f804a3, when the probe's threads still reached partition graphs): one thread
 * 9,663 vectors/s at 111 µs of CPU a vector, every one of 30,000 vectors found by itself; two threads 9,474 vectors/s
 * at 160 µs, 10 not found; recall@10 0.964 both.
 */
const PARTITION_ADD_THREADS = 1;

interface PartitionsMeta {
  model: string;
  dimension: number;
  partitions: number;
  /** Dimension of the vectors in the partition graphs when they hold projected vectors; absent (saved before projections) or 0: none. */
  projection?: number;
}

/** Vectors that left the first graph when it split: the caller adds them again (searchable meanwhile). */
export interface MovedVectors {
  keys: number[];
  matrix: Float32Array;
}

/**
 * The partitions of a split index and which thread holds each: with two search threads, thread 0 (the index
 * thread) holds the partitions of colour 0 and does everything else, thread 1 the partitions of colour 1.
 */
export interface PartitionLayout {
  centroids: VectorRows;
  projection: Projection | null;
  /** Each partition's thread; all 0 with one search thread. */
  threadOf: number[];
}

/**
 * Hands rows of a slice to the other search thread: `sliceKeys` (all of the slice's keys, to remove from its
 * partitions first) and the rows for its partitions.
 */
export type OtherThreadRows = (sliceKeys: readonly number[], keys: number[], matrix: Float32Array) => void;

/** What a search asks of each partition, planned by thread 0 for both threads. */
export interface SearchPlan {
  /** The question as the graphs hold vectors (projected, when they are). */
  graphQuery: Float32Array;
  asks: Array<{ partition: number; share: number }>;
  /** Candidates kept of all partitions' answers. */
  depth: number;
}

/** The `depth` best of several partitions' answers. */
export function bestOf(found: ScoredKey[], depth: number): ScoredKey[] {
  return found.sort((a, b) => b.score - a.score).slice(0, depth);
}

/**
 * The vector index as several HNSW graphs, one per region of the vector space (issue 16, bench/NOTES.md).
 * One graph over a million messages routes a short question into the wrong region for about one question in
 * ten, and no wider search recovers it; a search of the few graphs whose centroids are nearest the question
 * does, and a smaller graph costs a third of the CPU an insert.
 *
 * Life of an index:
 * - seeding: one graph, as before, while its first float32 vectors are kept (SeedVectors). Once it holds
 *   `partitions x SEED_VECTORS_PER_PARTITION`, k-means on them gives the centroids, the first graph is dropped
 *   and its vectors are handed back (`takeMoved`) to go into the partitions;
 * - partitioned: each vector goes into the graph of its nearest centroid; a search asks the `probes` nearest
 *   graphs, each exploring at least the partition expansion, for the candidates partitionShares gives them,
 *   and merges their answers. Unless `projectionEnergy` is 0, the split also learns a projection (projection.ts)
 *   and the graphs hold projected vectors, which the caller's exact re-rank makes harmless to the order.
 * A saved single graph without its seed (built before partitions existed), or `partitions: 1`, stays one graph.
 * The centroids are never relearned: a region that grows just makes a bigger graph.
 */
export class PartitionedVectorIndex {
  private single: UsearchVectorIndex | null;
  private seed: SeedVectors | null;
  /** One entry per partition: its graph, or null for a partition the other search thread holds. */
  private partitions: Array<UsearchVectorIndex | null> = [];
  /** Each partition's search thread (see PartitionLayout); null while there are no partitions. */
  private threadOf: number[] | null = null;
  /** Vectors in the partitions the other thread holds, as it last said (sizes plan filtered searches). */
  private otherSizes: ReadonlyMap<number, number> = new Map();
  private centroids: VectorRows | null = null;
  /** What the partition graphs hold of each vector, learned with the centroids; null: the vectors themselves. */
  private projection: Projection | null = null;
  /** Thread 0's sample of the partitioned vectors, which routes searches beside the centroids; null elsewhere. */
  private route: RouteSample | null = null;
  /** The partitions' layout (centroids, meta) is not on disk yet, and the single graph's files still are. */
  private layoutUnsaved = false;
  private moved: MovedVectors | null = null;
  /** The seed changed since it was last saved (it is rewritten whole: up to 48 MiB). */
  private seedDirty = false;

  private constructor(
    private readonly dir: string,
    readonly model: string,
    readonly dimension: number,
    private readonly parameters: HnswParameters,
    opened: {
      single: UsearchVectorIndex | null; seed: SeedVectors | null; partitions?: Array<UsearchVectorIndex | null>; centroids?: VectorRows;
      projection?: Projection | null; threadOf?: number[]; route?: RouteSample | null;
    },
    /** The search thread this index runs on: 0 holds the seeding graph, the split and the saved layout. */
    readonly thread = 0,
  ) {
    this.single = opened.single;
    this.seed = opened.seed;
    this.partitions = opened.partitions ?? [];
    this.centroids = opened.centroids ?? null;
    this.projection = opened.projection ?? null;
    this.threadOf = opened.threadOf ?? null;
    this.route = opened.route ?? null;
  }

  /**
   * Opens the saved partitions, or the saved single graph (with its seed, if it is still seeding), when built for
   * this model and dimension; otherwise starts empty. `loaded`: something saved was opened.
   */
  static open(
    dir: string, model: string, dimension: number, parameters: HnswParameters = DEFAULT_HNSW_PARAMETERS,
  ): { index: PartitionedVectorIndex; loaded: boolean } {
    mkdirSync(dir, { recursive: true });
    const layout = PartitionedVectorIndex.savedLayout(dir, model, dimension, parameters);
    if (layout) return { index: PartitionedVectorIndex.openThreadPart(dir, model, dimension, parameters, layout, 0), loaded: true };
    const { index: single, loaded } = UsearchVectorIndex.open(dir, model, dimension, parameters);
    let seed: SeedVectors | null = null;
    if (parameters.partitions > 1 && (!loaded || single.size() === 0)) {
      seed = new SeedVectors(dimension);
    } else if (parameters.partitions > 1 && existsSync(join(dir, SEED_FILE))) {
      seed = SeedVectors.load(join(dir, SEED_FILE), dimension);
      if (!seed || seed.size !== single.size()) {
        // The graph and its seed were saved at different moments (a crash between the two writes): seed again
        // from nothing; the owner's catch-up adds the stored vectors back (at most a seed's worth).
        single.clear();
        SeedVectors.remove(join(dir, SEED_FILE));
        return { index: new PartitionedVectorIndex(dir, model, dimension, parameters, { single, seed: new SeedVectors(dimension) }), loaded: false };
      }
    }
    // A saved graph without a seed file predates partitions: it stays one graph.
    return { index: new PartitionedVectorIndex(dir, model, dimension, parameters, { single, seed }), loaded };
  }

  /** The saved partitions' layout for this model and dimension (each partition's thread by `parameters.searchThreads`), or null. */
  static savedLayout(dir: string, model: string, dimension: number, parameters: HnswParameters): PartitionLayout | null {
    const saved = readPartitions(dir, model, dimension);
    if (!saved) return null;
    return { centroids: saved.centroids, projection: saved.projection, threadOf: threadsOf(saved.centroids, parameters.searchThreads) };
  }

  /** The partitions of `layout` that search thread `thread` holds, opened from their saved graphs (empty where none is saved). */
  static openThreadPart(
    dir: string, model: string, dimension: number, parameters: HnswParameters, layout: PartitionLayout, thread: number,
  ): PartitionedVectorIndex {
    const graphDimension = layout.projection?.to ?? dimension;
    const partitions = openPartitions(dir, model, graphDimension, parameters, layout.threadOf, thread);
    const route = thread === 0 ? RouteSample.open(routeDir(dir), model, graphDimension, parameters, layout.threadOf.length) : null;
    return new PartitionedVectorIndex(dir, model, dimension, parameters,
      { single: null, seed: null, partitions, centroids: layout.centroids, projection: layout.projection, threadOf: layout.threadOf, route }, thread);
  }

  /** The partitions and their threads, once split; null while seeding (or one graph for good). */
  partitionLayout(): PartitionLayout | null {
    if (this.single || !this.centroids || !this.threadOf) return null;
    return { centroids: this.centroids, projection: this.projection, threadOf: this.threadOf };
  }

  /** Whether any partition is held by the other search thread. */
  sharesPartitions(): boolean {
    return this.threadOf?.some((thread) => thread !== this.thread) ?? false;
  }

  /** Where the other search thread's partitions' sizes are kept up to date (PartitionThread.sizes). */
  useOtherSizes(sizes: ReadonlyMap<number, number>): void {
    this.otherSizes = sizes;
  }

  /** Vectors in each partition this thread holds. */
  ownSizes(): Array<[partition: number, size: number]> {
    return this.partitions.flatMap((graph, partition) => (graph ? [[partition, graph.size()] as [number, number]] : []));
  }

  /** The graphs' build parameters (a loaded graph's own), with the configured expansions and probes and the partitions in use. */
  graphParameters(): HnswParameters {
    const graph = this.single ?? this.graphs()[0]!;
    return {
      ...graph.graphParameters(), expansionSearch: this.parameters.expansionSearch, partitionExpansion: this.parameters.partitionExpansion,
      partitions: this.partitions.length || 1, probes: this.parameters.probes,
    };
  }

  /** Dimension of the vectors the graphs hold: smaller than the vectors' once the partitions project them. */
  graphDimension(): number {
    return this.projection?.to ?? this.dimension;
  }

  /** 'seeding' until the first graph splits; 'single' when it never will. */
  layout(): 'seeding' | 'single' | 'partitioned' {
    if (this.single === null) return 'partitioned';
    return this.seed ? 'seeding' : 'single';
  }

  size(): number {
    return this.single ? this.single.size() : this.partitions.reduce((sum, _, partition) => sum + this.partitionSize(partition), 0);
  }

  contains(key: number): boolean {
    return this.missing([key]).length === 0;
  }

  /** The keys of `keys` no graph holds. */
  missing(keys: readonly number[]): number[] {
    let missing = [...keys];
    for (const graph of this.graphs()) missing = graph.missing(missing);
    return missing;
  }

  /**
   * The keys of `keys` the route sample should hold and does not (a store indexed before it existed, or a crash
   * before it was saved): missing as much as keys no graph holds, since adding them again puts them in it.
   */
  unsampled(keys: readonly number[]): number[] {
    return this.route?.lacking(keys) ?? [];
  }

  /** `matrix` holds one row of `dimension` floats per key. A re-added key replaces its vector, in whichever graph it was. */
  add(keys: readonly number[], matrix: Float32Array, threads = 1, other?: OtherThreadRows): void {
    for (const _ of this.addInSteps(keys, matrix, threads, other)) { /* all at once */ }
  }

  /**
   * add(), one partition graph a step, so the caller can answer searches between them: at a million vectors the
   * graphs took 650-830 vectors/s on 2 cores, and a slice of 512 spread over the partitions held every search
   * for 0.6-0.8 s. While seeding (one graph) it is a single step.
   * @param threads insert threads of the one graph of `partitions: 1`; the seeding graph inserts on
   *   SEEDING_ADD_THREADS and a partition graph on PARTITION_ADD_THREADS, whatever this says
   * @param other told, before the first step, of the rows going into partitions the other search thread holds
   *   (it removes every key of the slice from its partitions: a re-added key may have moved to this thread's)
   */
  *addInSteps(keys: readonly number[], matrix: Float32Array, threads = 1, other?: OtherThreadRows): Generator<void, void, void> {
    if (keys.length === 0) return;
    if (this.single) {
      this.single.add(keys, matrix, this.seed ? SEEDING_ADD_THREADS : threads);
      if (this.seed) {
        this.seed.put(keys, matrix);
        this.seedDirty = true;
        if (this.seed.size >= this.parameters.partitions * SEED_VECTORS_PER_PARTITION) this.split();
      }
      return;
    }
    this.removeFromPartitions(keys);
    const owners = nearestCentroids(this.centroids!, matrix, 1);
    const rowsOf = new Map<number, number[]>();
    keys.forEach((_, row) => {
      const owner = Number(owners[row]);
      const rows = rowsOf.get(owner);
      if (rows) rows.push(row); else rowsOf.set(owner, [row]);
    });
    this.route?.offer(keys, (row) => Number(owners[row]), (rows) => this.graphRows(rowsOfMatrix(matrix, rows, this.dimension)));
    const partitions = this.partitions;
    const elsewhere = [...rowsOf].filter(([owner]) => !partitions[owner]).flatMap(([, rows]) => rows);
    if (this.thread === 0 && this.sharesPartitions()) {
      if (!other) throw new Error('vectors for the other search thread\'s partitions, and no way to hand them over');
      other(keys, elsewhere.map((row) => keys[row]!), rowsOfMatrix(matrix, elsewhere, this.dimension));
    } else if (elsewhere.length > 0) {
      throw new Error(`${elsewhere.length} vectors belong to partitions another search thread holds`);
    }
    let first = true;
    for (const [owner, rows] of rowsOf) {
      if (!partitions[owner]) continue;
      if (!first) yield;
      first = false;
      // Cleared between steps: the rest of the slice has no graph to go into.
      if (this.partitions !== partitions) return;
      const block = rowsOfMatrix(matrix, rows, this.dimension);
      // Projected a partition's share at a time, so a step holds searches no longer than its own inserts.
      partitions[owner]!.add(rows.map((row) => keys[row]!), this.graphRows(block), PARTITION_ADD_THREADS);
    }
  }

  /** What the partition graphs hold of these rows of vectors. */
  private graphRows(block: Float32Array): Float32Array {
    return this.projection ? projectRows(this.projection, block) : block;
  }

  /** The vectors the split took out of the first graph, once: the caller adds them again. */
  takeMoved(): MovedVectors | null {
    const moved = this.moved;
    this.moved = null;
    return moved;
  }

  remove(keys: readonly number[]): void {
    if (keys.length === 0) return;
    if (this.seed) { this.seed.remove(keys); this.seedDirty = true; }
    if (this.single) this.single.remove(keys);
    else this.removeFromPartitions(keys);
    this.route?.forget(keys);
  }

  /**
   * The `k` best of the graphs of the centroids nearest the query (partitionShares says how many); scores are the
   * graphs' (approximate). With `among` (rows of vectors a filter admits), the partitions holding them are asked,
   * all of them (at most MAX_HOLDING_PROBES), and for their part of k: k is a depth into the whole index, and those
   * partitions are that share of it.
   */
  search(query: Float32Array, k: number, among?: Float32Array): ScoredKey[] {
    if (this.single) return this.single.search(query, k);
    const plan = this.searchPlan(query, k, among);
    return bestOf(this.searchOwn(plan.graphQuery, plan.asks), plan.depth);
  }

  /** What search() asks of each partition (once split), whichever thread holds it. */
  searchPlan(query: Float32Array, k: number, among?: Float32Array): SearchPlan {
    const holding = among && among.length > 0 ? centroidsHolding(this.centroids!, among, HOLDING_SHARE) : null;
    const depth = holding ? Math.min(k, Math.max(SHARE_FLOOR + 1, Math.ceil((k * this.sizeOf(holding)) / Math.max(1, this.size())))) : k;
    // Every partition holding the filter is asked (nearest the question first): they are the filter's whole region.
    const probes = holding ? Math.min(holding.size, MAX_HOLDING_PROBES) : this.parameters.probes;
    const shares = partitionShares(depth, probes, this.parameters.partitionExpansion, holding ? probes : this.partitions.length,
      this.projection ? PROJECTED_NEAREST_WIDENING : 1, holding ? HOLDING_HEADROOM : FILTERED_HEADROOM);
    const nearest = holding
      ? [...nearestCentroids(this.centroids!, query, this.partitions.length)].filter((owner) => holding.has(Number(owner))).slice(0, shares.length)
      : [...nearestCentroids(this.centroids!, query, shares.length)];
    const graphQuery = this.projection ? projectRows(this.projection, query) : query;
    const asks = nearest.map((owner, rank) => ({ partition: Number(owner), share: shares[rank]! }));
    if (!holding) asks.push(...this.routedAsks(graphQuery, asks, Math.min(depth, this.parameters.partitionExpansion)));
    return { graphQuery, asks, depth };
  }

  /**
   * The partitions the route sample finds near the question that the centroids did not pick (at most
   * MAX_ROUTED_PROBES), each asked for `share`.
   */
  private routedAsks(graphQuery: Float32Array, asked: SearchPlan['asks'], share: number): SearchPlan['asks'] {
    if (!this.route) return [];
    const picked = new Set(asked.map((ask) => ask.partition));
    return this.route.partitionsNear(graphQuery, ROUTE_NEIGHBOURS).filter((partition) => !picked.has(partition))
      .slice(0, MAX_ROUTED_PROBES).map((partition) => ({ partition, share }));
  }

  /** The answers of the asked partitions this thread holds (graph scores, unsorted). */
  searchOwn(graphQuery: Float32Array, asks: SearchPlan['asks']): ScoredKey[] {
    const found: ScoredKey[] = [];
    for (const { partition, share } of asks) found.push(...(this.partitions[partition]?.search(graphQuery, share) ?? []));
    return found;
  }

  /** Vectors in the graphs of these partitions. */
  private sizeOf(partitions: ReadonlySet<number>): number {
    return [...partitions].reduce((sum, owner) => sum + this.partitionSize(owner), 0);
  }

  private partitionSize(partition: number): number {
    return this.partitions[partition]?.size() ?? this.otherSizes.get(partition) ?? 0;
  }

  /**
   * Saves what changed. After a split: the partitions first, then their centroids and meta (from then on the
   * saved index is partitioned), then the single graph's files go. A crash before the meta leaves the single
   * graph and its seed: the next start splits again.
   */
  save(): void {
    for (const _ of this.saveInSteps()) { /* all at once */ }
  }

  /**
   * save(), one changed partition graph a step, so the caller can answer searches between them: at a million
   * vectors, writing all 32 changed graphs at once held every search for seconds (ingest-to-searchable p99 3 s).
   * Inserts and removals between steps only leave a graph changed for the next save; after a clear between
   * them, the rest is not written (its directory is gone).
   *
   * `due` (the periodic save) writes only the graphs whose changes are worth a rewrite (saveIsDue below);
   * `every-change` (a stop, the end of a catch-up) writes every changed graph. A seeding graph is always
   * written with its seed: the two must match when they are read back.
   */
  *saveInSteps(scope: SaveScope = 'every-change'): Generator<void, void, void> {
    if (this.single) {
      if (this.seed || this.writesNow(this.single, scope === 'every-change')) this.single.save();
      if (this.seed && this.seedDirty) this.seed.save(join(this.dir, SEED_FILE));
      this.seedDirty = false;
      return;
    }
    const partitions = this.partitions;
    // Until the layout is on disk, every partition is new: all of them are written.
    const everything = scope === 'every-change' || this.layoutUnsaved;
    for (const graph of partitions) {
      if (this.partitions !== partitions) return;
      if (graph && this.writesNow(graph, everything) && graph.save()) yield;
    }
    if (this.partitions !== partitions) return;
    if (this.route && this.writesNow(this.route.graph, everything) && this.route.graph.save()) yield;
    // The layout is thread 0's: the other thread saves its partitions only.
    if (this.partitions !== partitions || !this.layoutUnsaved || this.thread !== 0) return;
    const dir = join(this.dir, PARTITIONS_DIR);
    writeAtomically(join(dir, CENTROIDS_FILE), bytesOf(this.centroids!.matrix));
    if (this.projection) writeAtomically(join(dir, PROJECTION_FILE), bytesOf(this.projection.components));
    const meta: PartitionsMeta = { model: this.model, dimension: this.dimension, partitions: this.partitions.length, projection: this.projection?.to ?? 0 };
    writeAtomically(join(dir, PARTITIONS_META), Buffer.from(JSON.stringify(meta)));
    UsearchVectorIndex.removeFiles(this.dir);
    SeedVectors.remove(join(this.dir, SEED_FILE));
    this.layoutUnsaved = false;
  }

  /**
   * Whether this save writes `graph`: it changed, and everything is written or its changes are due. A changed
   * graph it does not write is counted as passed over (so call it once per graph and save).
   */
  private writesNow(graph: UsearchVectorIndex, everything: boolean): boolean {
    const changes = graph.unsavedChanges();
    if (changes === 0) return false;
    if (everything || saveIsDue(changes, graph.size(), graph.savesSkipped())) return true;
    graph.skipSave();
    return false;
  }

  /** Empties the index and its files: it starts again with one graph, seeding (when partitioned at all). */
  clear(): void {
    rmSync(join(this.dir, PARTITIONS_DIR), { recursive: true, force: true });
    SeedVectors.remove(join(this.dir, SEED_FILE));
    const single = this.single ?? UsearchVectorIndex.open(this.dir, this.model, this.dimension, this.parameters).index;
    single.clear();
    this.single = single;
    this.seed = this.parameters.partitions > 1 ? new SeedVectors(this.dimension) : null;
    this.partitions = [];
    this.threadOf = null;
    this.otherSizes = new Map();
    this.centroids = null;
    this.projection = null;
    this.route = null;
    this.layoutUnsaved = false;
    this.moved = null;
  }

  /** The graphs this thread holds. */
  private graphs(): UsearchVectorIndex[] {
    return this.single ? [this.single] : this.partitions.filter((graph): graph is UsearchVectorIndex => graph !== null);
  }

  private removeFromPartitions(keys: readonly number[]): void {
    // One batched lookup a partition: a slice of 64 keys against 32 partitions would otherwise be 2,048 calls.
    for (const graph of this.graphs()) {
      const absent = new Set(graph.missing(keys));
      if (absent.size < keys.length) graph.remove(keys.filter((key) => !absent.has(key)));
    }
  }

  /**
   * Learns the centroids (and, unless projections are off, the projection) from the seed, starts one empty graph
   * per centroid and hands the seed back.
   */
  private split(): void {
    const seed = this.seed!.all();
    this.centroids = trainCentroids({ matrix: seed.matrix, dimension: this.dimension }, this.parameters.partitions);
    this.projection = this.parameters.projectionEnergy > 0
      ? learnProjection({ matrix: seed.matrix, dimension: this.dimension }, { ...DEFAULT_PROJECTION_TARGET, energyShare: this.parameters.projectionEnergy })
      : null;
    rmSync(join(this.dir, PARTITIONS_DIR), { recursive: true, force: true });
    this.threadOf = threadsOf(this.centroids, this.parameters.searchThreads);
    this.partitions = openPartitions(this.dir, this.model, this.graphDimension(), this.parameters, this.threadOf, this.thread);
    this.route = RouteSample.open(routeDir(this.dir), this.model, this.graphDimension(), this.parameters, this.partitions.length);
    this.single = null;
    this.seed = null;
    this.layoutUnsaved = true;
    this.moved = seed;
  }
}

/** What a saved index holds, read from its files without loading a graph. */
export interface SavedIndexSummary {
  model: string;
  /** Vectors in its graphs as last saved. */
  vectors: number;
  /** 1 for one graph (a store's first, seeding, or `partitions: 1`). */
  partitions: number;
  dimension: number;
  /** Dimension of the vectors the graphs hold: smaller than `dimension` when the partitions project them. */
  graphDimension: number;
}

/** The saved index under `dir` (its partitions, else its one graph), or null when nothing readable is saved there. */
export function savedIndexSummary(dir: string): SavedIndexSummary | null {
  const meta = readPartitionsMeta(dir);
  if (meta) {
    let vectors = 0;
    for (let c = 0; c < meta.partitions; c += 1) vectors += UsearchVectorIndex.savedGraph(partitionDir(dir, c))?.size ?? 0;
    return { model: meta.model, vectors, partitions: meta.partitions, dimension: meta.dimension, graphDimension: meta.projection || meta.dimension };
  }
  const single = UsearchVectorIndex.savedGraph(dir);
  return single && { model: single.model, vectors: single.size, partitions: 1, dimension: single.dimension, graphDimension: single.dimension };
}

/**
 * Whether the periodic save rewrites a changed partition graph. A save writes a graph whole (about 40 MB for a
 * partition of a 1,000,000-vector index), so rewriting every changed graph every 30 s wrote the whole index
 * again and again while it grew. A graph is due once its unsaved changes reach DUE_SHARE of its size, or once
 * it has been passed over DUE_AFTER_SKIPS times. What a crash leaves unsaved is added again from the stored
 * vectors by the next start's catch-up, in the background: at most about DUE_SHARE of the index, plus what
 * changed in the last DUE_AFTER_SKIPS periods. A stop saves everything.
 */
export function saveIsDue(changes: number, size: number, passedOver: number): boolean {
  return changes >= DUE_SHARE * size || passedOver >= DUE_AFTER_SKIPS;
}
const DUE_SHARE = 0.1;
const DUE_AFTER_SKIPS = 20;

/**
 * Candidates asked of each partition a search probes, nearest the query first; as many entries as partitions probed.
 *
 * A search without a filter asks for at most SHARE_FLOOR (116): the WHOLE_K_PROBES nearest of its `probes`
 * partitions are asked for all of it, the others for what their search explores anyway (`explored`, the partition
 * expansion, at most k). The best ten sit mostly in the nearest two: on a 1,070,000-vector store, 6 of 32 partitions
 * asked for 116/116/64/64/64/64 found recall@10 0.972 against 0.973 with 116 from each, in 4.4-4.7 rather than
 * 5.5-6.1 ms of index time (p50); 116/64/64/64/64/64 gave 0.968 and 64 from each 0.953 (bench/NOTES.md, session 18).
 * On another machine and store, 116/116/48/48/48/48 with 48 explored: 0.971 in 3.10 ms against 0.972 in 3.60 ms
 * (session 19).
 *
 * Graphs of projected vectors (projection.ts) lose some of the order within a region: `nearestWidening` asks the nearest
 * two for that many times k (the merge still keeps the best k). On a 1,070,068-vector store projected onto 192 of 768
 * dimensions, 232/232/48/48/48/48 found recall@10 0.958 against 0.950 for 116/116/..., in 2.8-2.9 rather than 2.0-2.4
 * ms of index time (bench/NOTES.md, session 22).
 *
 * A filtered search asks for thousands, of which the filter keeps a share. It probes FILTERED_EXTRA_PROBES more
 * partitions, and asks each a share of k that falls by SHARE_DECAY from one partition to the next, the shares adding
 * up to FILTERED_HEADROOM x k (never fewer than SHARE_FLOOR, never more than k): the nearest partitions hold most of
 * the best matches, and with a selective filter the few that pass are spread wider. On the 1,070,000-vector store of
 * session 20 (bench/NOTES.md), against six partitions each asked for half of k: a 10% folder filter (2,115
 * candidates) recall@10 0.982 → 0.988 and index p50 22.1 → 14.5 ms; a 1% filter (4,000) 0.963 → 0.976 and 35.6 →
 * 23.2 ms.
 */
export function partitionShares(
  k: number, probes: number, explored: number, partitions = Number.POSITIVE_INFINITY, nearestWidening = 1,
  headroom = FILTERED_HEADROOM,
): number[] {
  if (k <= SHARE_FLOOR) {
    const rest = Math.min(k, explored);
    const nearest = Math.ceil(k * nearestWidening);
    return Array.from({ length: Math.min(probes, partitions) }, (_, rank) => (rank < WHOLE_K_PROBES ? nearest : rest));
  }
  const probed = Math.max(1, Math.min(probes + FILTERED_EXTRA_PROBES, partitions));
  const weights = Array.from({ length: probed }, (_, rank) => SHARE_DECAY ** rank);
  const total = weights.reduce((sum, weight) => sum + weight, 0);
  return weights.map((weight) => Math.min(k, Math.max(SHARE_FLOOR, Math.ceil((k * headroom * weight) / total))));
}
const SHARE_FLOOR = 128;
/**
 * Partitions holding a filter's sample searched at most. A folder spanning three of the bench's topics (/work, 38% of
 * 100,000 messages) sits in about a dozen; asking the index_probes + 2 of them nearest the question found recall@10
 * 0.945, asking all 0.976, at the same latency (p50 15 ms).
 */
const MAX_HOLDING_PROBES = 16;
/** A partition holding less of a filter's sample than this is not searched for it. */
const HOLDING_SHARE = 0.01;
const WHOLE_K_PROBES = 2;
/** What the nearest two partitions of a projected index are asked for, as a multiple of k (see partitionShares). */
const PROJECTED_NEAREST_WIDENING = 2;
const FILTERED_EXTRA_PROBES = 2;
const SHARE_DECAY = 0.75;
const FILTERED_HEADROOM = 1.44;
/**
 * The shares' sum for a search among the partitions holding a filter (the wider retry of a filter whose matches lie
 * away from the question, or a concentrated filter's only search: sqlite-vector-search.ts): every such partition is
 * already probed, so the headroom goes into asking them deeper.
 * A topical folder (/research, 133,590 of 1,020,072 vectors, 4 partitions of 34,000-41,000 holding it) asked the 100
 * recall questions, most about other topics, in process (a scratch probe of SearchService.query): recall@10 0.942 at
 * 1.44, 0.957 at 2.88, 0.960 at 4.32; the whole search p50 23.4 → 26.5-27.2 ms at 2.88 (alternating; bench/NOTES.md,
 * session 34).
 */
const HOLDING_HEADROOM = 2 * FILTERED_HEADROOM;
/**
 * Route sample entries a search without a filter looks at, and the partitions they name that it probes at most
 * beyond the centroids' (route-sample.ts): in a scratch probe's 1M build, top 5/10/20/40 entries found recall@10
 * 0.962/0.962/0.965/0.965 (0.949 without) with 0.08/0.13/0.26/0.34 more partitions a question; on a 1M store 40
 * entries 0.960 against 20's 0.959 (session 31).
 */
export const ROUTE_NEIGHBOURS = 20;
export const MAX_ROUTED_PROBES = 4;

/**
 * One graph per partition, under dir/partitions/<n>, of the partitions' M, searched with the partition expansion
 * (usearch explores at least the k it is asked for).
 */
function openPartitions(
  dir: string, model: string, dimension: number, parameters: HnswParameters, threadOf: readonly number[], thread: number,
): Array<UsearchVectorIndex | null> {
  return threadOf.map((holder, c) => (holder !== thread ? null : UsearchVectorIndex.open(partitionDir(dir, c), model, dimension,
    { ...parameters, connectivity: parameters.partitionConnectivity, expansionSearch: parameters.partitionExpansion }).index));
}

/** Each partition's search thread: split between two by twoColouring, or all on thread 0. */
function threadsOf(centroids: VectorRows, searchThreads: number): number[] {
  return searchThreads > 1 ? twoColouring(centroids) : new Array<number>(centroids.matrix.length / centroids.dimension).fill(0);
}

/** The rows `rows` of `matrix` (`dimension` floats a row), in that order, as a matrix of their own. */
function rowsOfMatrix(matrix: Float32Array, rows: readonly number[], dimension: number): Float32Array {
  const block = new Float32Array(rows.length * dimension);
  rows.forEach((row, i) => block.set(matrix.subarray(row * dimension, (row + 1) * dimension), i * dimension));
  return block;
}

function routeDir(dir: string): string {
  return join(dir, PARTITIONS_DIR, ROUTE_DIR);
}

function partitionDir(dir: string, partition: number): string {
  return join(dir, PARTITIONS_DIR, String(partition));
}

function readPartitions(
  dir: string, model: string, dimension: number,
): { meta: PartitionsMeta; centroids: VectorRows; projection: Projection | null } | null {
  const meta = readPartitionsMeta(dir);
  if (!meta || meta.model !== model || meta.dimension !== dimension) return null;
  const projected = meta.projection ?? 0;
  try {
    const centroids = readFloats(join(dir, PARTITIONS_DIR, CENTROIDS_FILE), meta.partitions * dimension);
    const components = projected > 0 ? readFloats(join(dir, PARTITIONS_DIR, PROJECTION_FILE), projected * dimension) : null;
    if (!centroids || (projected > 0 && !components)) return null;
    return {
      meta,
      centroids: { matrix: centroids, dimension },
      projection: components ? { from: dimension, to: projected, components } : null,
    };
  } catch {
    return null;
  }
}

/** The saved partitions' meta, when there is one and it is well formed (whatever model and dimension it names). */
function readPartitionsMeta(dir: string): PartitionsMeta | null {
  let meta: PartitionsMeta;
  try {
    meta = JSON.parse(readFileSync(join(dir, PARTITIONS_DIR, PARTITIONS_META), 'utf8')) as PartitionsMeta;
  } catch {
    return null;
  }
  const projected = meta.projection ?? 0;
  const wellFormed = typeof meta.model === 'string' && Number.isInteger(meta.dimension) && meta.dimension > 0
    && Number.isInteger(meta.partitions) && meta.partitions >= 1
    && Number.isInteger(projected) && projected >= 0 && projected < meta.dimension;
  return wellFormed ? meta : null;
}

/** The file's floats when it holds exactly `count` of them. */
function readFloats(file: string, count: number): Float32Array | null {
  const bytes = readFileSync(file);
  if (bytes.byteLength !== count * 4) return null;
  const floats = new Float32Array(count);
  new Uint8Array(floats.buffer).set(bytes);
  return floats;
}

function bytesOf(floats: Float32Array): Buffer {
  return Buffer.from(floats.buffer, floats.byteOffset, floats.byteLength);
}

function writeAtomically(file: string, bytes: Buffer): void {
  mkdirSync(join(file, '..'), { recursive: true });
  writeFileSync(`${file}.tmp`, bytes);
  renameSync(`${file}.tmp`, file);
}
