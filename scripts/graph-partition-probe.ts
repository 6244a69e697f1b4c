/**
 * Does a partitioned index route short questions the one graph misses (issue 16)? Embeds the bench corpus's
 * first --messages messages, clusters them (spherical k-means on a sample, --partitions centroids), builds one
 * graph per cluster (i8, --threads inserts; M and expansion_add the service's unless --connectivity, a list tried
 * in turn, and --expansion-add say) and, for each question, searches the graphs of its --probes nearest
 * centroids for --candidates each; recall@10 after the exact f32 re-rank of their union, beside the one graph's
 * (built too unless --no-single). --expansions: the partitions' expansion_search values to try. Searches are
 * timed on the second of two rounds. --interleaved inserts as the service does rather than a partition at a time.
 * --shares 'a,b,c;d,e' asks the nearest partition for a candidates, the next for b, and so on (a row for each list,
 * probing as many partitions as it has shares) rather than --candidates from each of --probes. --merge keeps the --candidates best of the partitions'
 * answers by graph score before the re-rank, as the service does, rather than re-ranking their union.
 * --route-tops 0,20: rows for each value n (0: none), each probing also the partitions (at most MAX_ROUTED_PROBES
 * more, asked for the last share) of the n entries nearest the question in the service's route sample
 * (route-sample.ts) of the rows.
 *
 *   npx tsx scripts/graph-partition-probe.ts --messages 1000000 --partitions 32 --probes 1,2,4,8 --expansions 64,128,384
 *   npx tsx scripts/graph-partition-probe.ts --messages 1000000 --probes 6 --expansions 64 --connectivity 16,24,32,64 --no-single
 */
import { rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import usearch from 'usearch';
import { nearestCentroids, trainCentroids } from '../src/adapters/vector/centroids.js';
import { MAX_ROUTED_PROBES, SEED_VECTORS_PER_PARTITION } from '../src/adapters/vector/partitioned-vector-index.js';
import { DEFAULT_PROJECTION_TARGET, learnProjection, projectRows } from '../src/adapters/vector/projection.js';
import { RouteSample } from '../src/adapters/vector/route-sample.js';
import { DEFAULT_HNSW_PARAMETERS } from '../src/adapters/vector/usearch-vector.index.js';
import { createBuiltinEmbedder } from '../src/bridge/builtin/embedding/builtin-embedder.js';
import { SHARED_MODEL_CACHE } from '../test/helpers/service-harness.js';
import { DIMENSION, embedCorpus, mean, recallCheck } from './lib/corpus-vectors.js';
import { option } from './lib/probe-options.js';

const size = Number(option('messages', '300000'));
const queryCount = Number(option('queries', '100'));
const threads = Number(option('threads', '2'));
const candidates = Number(option('candidates', '116'));
const partitions = Number(option('partitions', '32'));
const probes = option('probes', '1,2,4,8').split(',').map(Number);
const single = !process.argv.includes('--no-single');
const expansions = option('expansions', '384').split(',').map(Number);
// Without --connectivity, the service's: partitionConnectivity for the partitions, connectivity for the one graph.
const connectivities = option('connectivity', String(DEFAULT_HNSW_PARAMETERS.partitionConnectivity)).split(',').map(Number);
const singleConnectivities = process.argv.includes('--connectivity') ? connectivities : [DEFAULT_HNSW_PARAMETERS.connectivity];
const routeTops = option('route-tops', '0').split(',').map(Number);
/** Lists of candidates asked of the nearest, second nearest, ... partition; none: --probes x --candidates. */
const shareLists = option('shares', '').split(';').filter(Boolean).map((list) => list.split(',').map(Number));
const merged = process.argv.includes('--merge');
const expansionAdd = Number(option('expansion-add', String(DEFAULT_HNSW_PARAMETERS.expansionAdd)));
/** Insert as the service does (slices spread over the partitions) rather than one partition after another. */
const interleaved = process.argv.includes('--interleaved');
/** The index thread's slice of waiting vectors when partitioned (PARTITIONED_ADD_SLICE, usearch-index.worker.ts). */
const SERVICE_SLICE = 512;

const embedder = await createBuiltinEmbedder({ cacheDir: SHARED_MODEL_CACHE });
const matrix = await embedCorpus(embedder, size);
const { queries: fullQueries, recall } = await recallCheck(embedder, matrix, queryCount);
/**
 * --project n: the graphs hold a count sketch of each vector in n dimensions (input dimension i adds +-x[i] to
 * output h(i), both seeded), and the f32 re-rank stays exact. The sketch preserves inner products in expectation.
 */
const projection = Number(option('project', '0'));
/**
 * --pca: the graphs hold each vector projected as the service projects it (learnProjection on the first
 * SEED_VECTORS_PER_PARTITION x --partitions vectors, the service's seed; --pca-energy the share kept); routing stays
 * on the full vectors.
 */
const pca = process.argv.includes('--pca')
  ? learnProjection({ matrix: matrix.subarray(0, Math.min(size, partitions * SEED_VECTORS_PER_PARTITION) * DIMENSION), dimension: DIMENSION },
    { ...DEFAULT_PROJECTION_TARGET, energyShare: Number(option('pca-energy', String(DEFAULT_PROJECTION_TARGET.energyShare))) })
  : null;
if (process.argv.includes('--pca') && !pca) throw new Error('the sample declined a projection');
const GRAPH_DIMENSION = pca ? pca.to : projection > 0 ? projection : DIMENSION;
const sketch = sketchOf(DIMENSION, GRAPH_DIMENSION);
const projectStarted = process.cpuUsage();
const graphMatrix = pca ? projectRows(pca, matrix) : projection > 0 ? sketch(matrix) : matrix;
if (pca) {
  const used = process.cpuUsage(projectStarted);
  console.log(`graphs hold ${GRAPH_DIMENSION} principal directions of each vector; projecting took ${((used.user + used.system) / size).toFixed(1)} µs CPU a vector`);
}
const queries = fullQueries.map((query) => (pca ? projectRows(pca, query) : projection > 0 ? sketch(query) : query));
if (projection > 0) console.log(`graphs hold a ${GRAPH_DIMENSION}-dimension count sketch of each vector`);
/** What partitions are learned from and routed by: the full vectors with --pca, as in the service. */
const routingMatrix = pca ? matrix : graphMatrix;
const ROUTING_DIMENSION = pca ? DIMENSION : GRAPH_DIMENSION;

function sketchOf(from: number, to: number): (rows: Float32Array) => Float32Array {
  let state = 0x9e3779b9;
  const next = () => { state ^= state << 13; state ^= state >>> 17; state ^= state << 5; return state >>> 0; };
  const target = Uint32Array.from({ length: from }, () => next() % to);
  const sign = Float32Array.from({ length: from }, () => (next() & 1 ? 1 : -1));
  return (rows) => {
    const count = rows.length / from;
    const out = new Float32Array(count * to);
    for (let r = 0; r < count; r += 1) {
      for (let i = 0; i < from; i += 1) out[r * to + target[i]!]! += sign[i]! * rows[r * from + i]!;
    }
    return out;
  };
}
const rowOf = (row: number) => graphMatrix.subarray(row * GRAPH_DIMENSION, (row + 1) * GRAPH_DIMENSION);
const p50 = (times: number[]) => [...times].sort((a, b) => a - b)[Math.floor(times.length / 2)]!.toFixed(2);
const p95 = (times: number[]) => [...times].sort((a, b) => a - b)[Math.floor(times.length * 0.95)]!.toFixed(2);
const newGraph = (expansionSearch: number, connectivity: number) => new usearch.Index({ dimensions: GRAPH_DIMENSION,
  metric: usearch.MetricKind.Cos, quantization: option('quantization', 'i8') === 'f16' ? usearch.ScalarKind.F16 : usearch.ScalarKind.I8, connectivity, expansion_add: expansionAdd,
  expansion_search: expansionSearch, multi: false });
function insert(graph: InstanceType<typeof usearch.Index>, rows: number[]): void {
  const step = 32 * Math.max(1, threads);
  for (let from = 0; from < rows.length; from += step) {
    const slice = rows.slice(from, from + step);
    const block = new Float32Array(slice.length * GRAPH_DIMENSION);
    slice.forEach((row, i) => block.set(rowOf(row), i * GRAPH_DIMENSION));
    graph.add(BigUint64Array.from(slice, BigInt), block, threads);
  }
}
const keysOf = (graph: InstanceType<typeof usearch.Index>, query: Float32Array, n: number) =>
  Array.from((graph.search(query, n, 1) as { keys: BigUint64Array }).keys, Number);
/**
 * The partitions' answers for `query`, the n-th nearest asked for counts[n]: their union, or with --merge the best
 * `candidates`. With `routeTop`, the route sample's partitions too (see --route-tops).
 */
function partitionPool(
  graphs: Array<InstanceType<typeof usearch.Index>>, query: Float32Array, counts: number[], routingQuery: Float32Array, routeTop = 0,
): number[] {
  const owners = [...nearestCentroids(centroids, routingQuery, counts.length)].map(Number);
  const asks = owners.map((c, n) => [c, counts[n]!] as [number, number]);
  if (routeTop > 0) {
    const extra = routeSample().partitionsNear(query, routeTop).filter((c) => !owners.includes(c)).slice(0, MAX_ROUTED_PROBES);
    asks.push(...extra.map((c) => [c, counts.at(-1)!] as [number, number]));
  }
  const found = asks.map(([c, count]) => graphs[c]!.search(query, count, 1) as { keys: BigUint64Array; distances: Float32Array });
  if (!merged) return found.flatMap((answer) => Array.from(answer.keys, Number));
  return found.flatMap((answer) => Array.from(answer.keys, (key, i) => ({ key: Number(key), distance: answer.distances[i]! })))
    .sort((a, b) => a.distance - b.distance).slice(0, candidates).map((item) => item.key);
}

let route: RouteSample | null = null;
/** The service's route sample of the rows (each row its key), built on first use; never saved. */
function routeSample(): RouteSample {
  if (route) return route;
  const dir = `${tmpdir()}/route-probe-${process.pid}`;
  route = RouteSample.open(dir, 'probe', GRAPH_DIMENSION, DEFAULT_HNSW_PARAMETERS, partitions);
  rmSync(dir, { recursive: true, force: true });
  const rows = Array.from({ length: size }, (_, row) => row);
  route.offer(rows, (row) => Number(owner[row]), (picked) => {
    const block = new Float32Array(picked.length * GRAPH_DIMENSION);
    picked.forEach((row, i) => block.set(rowOf(row), i * GRAPH_DIMENSION));
    return block;
  });
  return route;
}

// The service's spherical k-means (centroids.ts) on a sample of partitions x 500 vectors.
const started = performance.now();
const sampleSize = Math.min(size, partitions * 500);
const sample = new Float32Array(sampleSize * ROUTING_DIMENSION);
// --sample first: the first vectors, as the service learns its partitions; even (default): spread over all.
const firstRows = option('sample', 'even') === 'first';
const routingRow = (row: number) => routingMatrix.subarray(row * ROUTING_DIMENSION, (row + 1) * ROUTING_DIMENSION);
for (let i = 0; i < sampleSize; i += 1) sample.set(routingRow(firstRows ? i : Math.floor((i * size) / sampleSize)), i * ROUTING_DIMENSION);
const centroids = trainCentroids({ matrix: sample, dimension: ROUTING_DIMENSION }, partitions);
const owner = nearestCentroids(centroids, routingMatrix, 1);
const members: number[][] = Array.from({ length: partitions }, () => []);
for (let row = 0; row < size; row += 1) members[Number(owner[row])]!.push(row);
const sizes = members.map((m) => m.length).sort((a, b) => a - b);
console.log(`${partitions} partitions in ${((performance.now() - started) / 1000).toFixed(1)} s: sizes min ${sizes[0]} median ${sizes[partitions >> 1]} max ${sizes.at(-1)}`);

/** Runs `build` and says how long it took and how much CPU it used a vector. */
function timedBuild(label: string, build: () => void): void {
  const wall = performance.now();
  const cpu = process.cpuUsage();
  build();
  const used = process.cpuUsage(cpu);
  console.log(`${label} built in ${((performance.now() - wall) / 1000).toFixed(1)} s, ${((used.user + used.system) / size).toFixed(0)} µs CPU a vector`);
}

/** Recall@10 of each question's pool and the time to gather it, from the second of two rounds (the first warms the pages). */
function timedSearches(pool: (query: Float32Array, routingQuery: Float32Array) => number[]): string {
  let times: number[] = [];
  let per: number[] = [];
  for (let round = 0; round < 2; round += 1) {
    times = [];
    per = queries.map((query, q) => {
      const t = performance.now();
      const found = pool(query, pca ? fullQueries[q]! : query);
      times.push(performance.now() - t);
      return recall(q, found);
    });
  }
  return `recall@10 ${mean(per).toFixed(3)}, under 0.5: ${per.filter((r) => r < 0.5).length}, search p50 ${p50(times)} p95 ${p95(times)} ms`;
}

for (const connectivity of connectivities) {
  const graphs = members.map(() => newGraph(384, connectivity));
  timedBuild(`M ${connectivity}: partition graphs`, () => {
    if (!interleaved) return members.forEach((rows, c) => insert(graphs[c]!, rows));
    // As the service does: slices in arrival order, each partition's share of a slice in one add.
    for (let from = 0; from < size; from += SERVICE_SLICE) {
      const share: number[][] = Array.from({ length: partitions }, () => []);
      for (let row = from; row < Math.min(size, from + SERVICE_SLICE); row += 1) share[Number(owner[row])]!.push(row);
      share.forEach((rows, c) => { if (rows.length > 0) insert(graphs[c]!, rows); });
    }
  });
  // The saved graph does not hold expansion_search: load each partition's again under every --expansions value.
  const saved = graphs.map((graph, c) => { const file = `${tmpdir()}/partition-probe-${process.pid}-${c}.usearch`; graph.save(file); return file; });
  console.log(`M ${connectivity}: ${(saved.reduce((sum, file) => sum + statSync(file).size, 0) / 2 ** 20).toFixed(0)} MiB saved`);
  for (const expansion of expansions) {
    const searched = saved.map((file) => { const graph = newGraph(expansion, connectivity); graph.load(file); return graph; });
    const rows = shareLists.length > 0 ? shareLists : probes.map((probe) => Array<number>(probe).fill(candidates));
    for (const counts of rows) {
      for (const routeTop of routeTops) {
        const result = timedSearches((query, routingQuery) => partitionPool(searched, query, counts, routingQuery, routeTop));
        const routed = routeTop > 0 ? `, routed by the sample's ${routeTop} nearest` : '';
        console.log(`M ${connectivity}, expansion ${expansion}, ${counts.length} of ${partitions} partitions x ${counts.join('/')}${merged ? ` merged to ${candidates}` : ''}${routed}: ${result}`);
      }
    }
  }
  for (const file of saved) rmSync(file, { force: true });
}

for (const connectivity of single ? singleConnectivities : []) {
  const graph = newGraph(384, connectivity);
  timedBuild(`M ${connectivity}: one graph`, () => insert(graph, Array.from({ length: size }, (_, row) => row)));
  console.log(`M ${connectivity}: one graph x ${candidates}: ${timedSearches((query) => keysOf(graph, query, candidates))}`);
}
