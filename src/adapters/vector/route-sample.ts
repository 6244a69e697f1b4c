import { UsearchVectorIndex, type HnswParameters } from './usearch-vector.index.js';

/** Every SAMPLE_EVERY-th message key goes into the sample: 15,600 vectors at a million. */
export const SAMPLE_EVERY = 64;
/**
 * An entry's key: its partition x PARTITION_UNIT + its message key / SAMPLE_EVERY, scattered (see entryOf). usearch
 * finds a key in a table of a power of two by the key's own low bits, probing on from there: 534,400 lookups of
 * the 32 entries each of 16,700 keys took 4.96 s with the keys' indexes as they are (a dense run every absent one
 * probes to its end), 58 ms scattered (`scratch`: one usearch index, 8 dimensions).
 */
const PARTITION_UNIT = 2 ** 40;
const LOW_BITS = BigInt(PARTITION_UNIT) - 1n;
/** Odd, so multiplying by it modulo 2^40 gives each index its own scattered value. */
const SCATTER = 0x9e3779b97f4a7c15n;
/**
 * How entries are keyed (entryOf). The saved graph names it beside the model, so a sample keyed another way is not
 * read (its entries would name the wrong partitions) and the start's catch-up fills a new one. 1: key x 1024 +
 * partition (this version's first builds); 2: partition x 2^40 + scattered index.
 */
const ENTRY_FORMAT = 2;
/** A small graph: it holds a sixty-fourth of the vectors and is asked for a few dozen. */
const ROUTE_GRAPH = { connectivity: 16, expansionAdd: 64, expansionSearch: 64 } as const;

/**
 * Where a question's neighbours are, learned from the vectors themselves rather than the centroids: a small graph
 * of every SAMPLE_EVERY-th vector of a partitioned index, each under a key that also names its partition.
 *
 * A search probes the partitions whose centroids are nearest the question. A question that falls between the
 * corpus's regions (two rare words from different topics, say) can have its nearest messages in a partition
 * whose centroid is far from it, and then no wider search of the near partitions finds them. The sample's
 * nearest entries to the question lie where those messages are, so their partitions are probed too. It lifts the
 * builds whose centroids route badly and leaves good ones as they were (session 31, bench/NOTES.md): the same
 * graphs with and without it, recall@10 0.954 → 0.959 on a 1M scale-bench store, 0.959 → 0.974 on a 100K one,
 * 0.949 → 0.962 in a scratch probe's build, 0.958 → 0.959 and 0.961 → 0.961 in two builds of a graph-partition
 * probe since deleted; for 0.1-0.3 more partitions searched a question.
 *
 * The sample is a hint, never an answer: an entry left behind by a crash (a removal not yet saved) only has a
 * partition searched. Saved beside the partitions. A store indexed before it existed starts with an empty sample;
 * the index counts the keys the sample lacks as missing (`lacking`), so the next start's catch-up adds those vectors
 * again (a sixty-fourth of them) and fills it.
 */
export class RouteSample {
  private constructor(
    /** Its graph: the owner saves it as it saves a partition's. */
    readonly graph: UsearchVectorIndex,
    private readonly partitions: number,
  ) {}

  /** The saved sample in `dir` for this model, graph dimension and entry format, or an empty one. */
  static open(dir: string, model: string, graphDimension: number, parameters: HnswParameters, partitions: number): RouteSample {
    const { index } = UsearchVectorIndex.open(dir, `${model} (route sample, entries v${ENTRY_FORMAT})`, graphDimension, { ...parameters, ...ROUTE_GRAPH });
    return new RouteSample(index, partitions);
  }

  /** Whether `key` belongs in the sample. */
  static samples(key: number): boolean {
    return key % SAMPLE_EVERY === 0;
  }

  size(): number {
    return this.graph.size();
  }

  /**
   * Puts the sampled keys among `keys` in the sample, each under the partition `partitionOf` gives, replacing any
   * entry it had under another. `graphRows(rows)` gives the graph vectors of those rows of `keys`.
   */
  offer(keys: readonly number[], partitionOf: (row: number) => number, graphRows: (rows: number[]) => Float32Array): void {
    const rows = keys.flatMap((key, row) => (RouteSample.samples(key) ? [row] : []));
    if (rows.length === 0) return;
    this.forget(rows.map((row) => keys[row]!));
    this.graph.add(rows.map((row) => entryOf(keys[row]!, partitionOf(row))), graphRows(rows));
  }

  /** Takes these keys out of the sample (those it does not hold are passed over). */
  forget(keys: readonly number[]): void {
    const entries = keys.filter(RouteSample.samples).flatMap((key) => this.entriesOf(key));
    if (entries.length === 0) return;
    const absent = new Set(this.graph.missing(entries));
    this.graph.remove(entries.filter((entry) => !absent.has(entry)));
  }

  /** The keys of `keys` that belong in the sample and have no entry in it. */
  lacking(keys: readonly number[]): number[] {
    const sampled = keys.filter(RouteSample.samples);
    if (sampled.length === 0) return [];
    const absent = new Set(this.graph.missing(sampled.flatMap((key) => this.entriesOf(key))));
    return sampled.filter((key) => this.entriesOf(key).every((entry) => absent.has(entry)));
  }

  /** The entries `key` could have, one under each partition. */
  private entriesOf(key: number): number[] {
    return Array.from({ length: this.partitions }, (_, partition) => entryOf(key, partition));
  }

  /** The partitions of the sample's `count` entries nearest `graphQuery`, nearest first, each once. */
  partitionsNear(graphQuery: Float32Array, count: number): number[] {
    const partitions = this.graph.search(graphQuery, count).map(({ key }) => Math.floor(key / PARTITION_UNIT));
    return [...new Set(partitions)];
  }
}

function entryOf(key: number, partition: number): number {
  return partition * PARTITION_UNIT + Number((BigInt(key / SAMPLE_EVERY) * SCATTER) & LOW_BITS);
}
