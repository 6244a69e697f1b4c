/**
 * What an unfiltered search of the partitioned index costs and finds, on a scale-bench store's own saved graphs
 * (issue 16): for each --probes and each --each (candidates asked of every probed partition; usearch explores
 * max(--expansion, each), 48 by default), the index part's time (centroids, graph searches, merge) and recall@10 after
 * the exact f32 re-rank of the best --depth (116, what the service re-ranks), against the exact top 10 of every
 * stored vector. Single-threaded, as the index thread searches.
 *
 * --shares 'a,b,c;d,e' instead asks the nearest partition for a, the next for b, and so on: a row for each list, probing
 * as many partitions as it has shares.
 *
 * --folder <path> times a filtered search instead: the index is asked for the candidates the service asks for under that
 * folder filter (indexCandidates), spread by --fractions 'a,b,...;...' (each a fraction of those candidates, nearest
 * partition first); the best of them by the graphs' scores are kept, those in the folder re-ranked exactly, and
 * recall@10 is against the exact top 10 of the folder's stored vectors.
 *
 * With --filter-aware as well, the partitions probed are those nearest the question among the partitions that hold
 * the folder's vectors (an even sample of 512 of them, each assigned its nearest centroid; a partition holding at least
 * 1% of the sample counts), rather than the partitions nearest the question: a prototype for topical folders.
 *
 * --route adds a row for each list searched as the service does, with the partitions of the store's route sample
 * (route-sample.ts; up to MAX_ROUTED_PROBES more, each asked for the list's last share) beside those nearest the question.
 *
 *   npx tsx scripts/partition-search-probe.ts --data-dir <dir>/scale/store --probes 4,6,8 --each 32,64,116 [--queries 100]
 *   npx tsx scripts/partition-search-probe.ts --data-dir <dir>/scale/store --folder /sel/a --fractions '0.5,0.5,0.5,0.5,0.5,0.5;1,1,0.25,0.25,0.25,0.25'
 *   npx tsx scripts/partition-search-probe.ts --data-dir <dir>/scale/store --shares '116,116,64,64,32,32;116,64,64,32'
 */
import BetterSqlite3 from 'better-sqlite3';
import usearch from 'usearch';
import { recallQuestions } from '../bench/lib/search-queries.js';
import { createBuiltinEmbedder } from '../src/bridge/builtin/embedding/builtin-embedder.js';
import { centroidsHolding, nearestCentroids, type VectorRows } from '../src/adapters/vector/centroids.js';
import { MAX_ROUTED_PROBES, PartitionedVectorIndex, ROUTE_NEIGHBOURS } from '../src/adapters/vector/partitioned-vector-index.js';
import { projectRows, type Projection } from '../src/adapters/vector/projection.js';
import { DEFAULT_HNSW_PARAMETERS, type UsearchVectorIndex } from '../src/adapters/vector/usearch-vector.index.js';
import type { RouteSample } from '../src/adapters/vector/route-sample.js';
import { indexCandidates } from '../src/adapters/sqlite/sqlite-vector-search.js';
import { SHARED_MODEL_CACHE } from '../test/helpers/service-harness.js';
import { option } from './lib/probe-options.js';

const dataDir = option('data-dir', '');
const questions = recallQuestions(Number(option('queries', '100')));
const depth = Number(option('depth', '116'));
const expansion = Number(option('expansion', String(DEFAULT_HNSW_PARAMETERS.partitionExpansion)));
const DIMENSION = 768;

const folder = option('folder', '');
const db = new BetterSqlite3(`${dataDir}/memsvc.db`, { readonly: true });
const count = (db.prepare('SELECT count(*) AS n FROM message_vectors').get() as { n: number }).n;
/** The stored vectors in --folder's subtree (every one without --folder). */
const admitted = new Set<number>(folder === '' ? [] : db.prepare(`SELECT m.seq FROM messages m JOIN conversations c ON c.id = m.conversation_id
  JOIN message_vectors v ON v.message_seq = m.seq WHERE c.folder = ? OR (c.folder >= ? AND c.folder < ?)`).pluck()
  .all(folder, `${folder}/`, `${folder}0`) as number[]);
const matrix = new Float32Array(count * DIMENSION);
const rowOf = new Map<number, number>();
let row = 0;
for (const item of db.prepare('SELECT message_seq AS key, vector FROM message_vectors').iterate() as IterableIterator<{ key: number; vector: Buffer }>) {
  new Uint8Array(matrix.buffer, row * DIMENSION * 4, DIMENSION * 4).set(item.vector);
  rowOf.set(item.key, row);
  row += 1;
}
db.close();
console.log(`${count} stored vectors loaded`);

const embedder = await createBuiltinEmbedder({ cacheDir: SHARED_MODEL_CACHE });
const queries = await embedder.embed(questions);
const queryMatrix = new Float32Array(queries.length * DIMENSION);
queries.forEach((query, i) => queryMatrix.set(query, i * DIMENSION));
/** Each question's exact top 10 rows (among the folder's, with --folder). */
const exactTop: number[][] = [];
if (folder === '') {
  const exact = usearch.exactSearch(matrix, queryMatrix, DIMENSION, 10, usearch.MetricKind.Cos, 0) as { keys: BigUint64Array };
  queries.forEach((_, q) => exactTop.push(Array.from(exact.keys.subarray(q * 10, q * 10 + 10), Number)));
} else {
  const rows = [...admitted].map((key) => rowOf.get(key)!);
  const sub = new Float32Array(rows.length * DIMENSION);
  rows.forEach((r, i) => sub.set(matrix.subarray(r * DIMENSION, (r + 1) * DIMENSION), i * DIMENSION));
  const exact = usearch.exactSearch(sub, queryMatrix, DIMENSION, 10, usearch.MetricKind.Cos, 0) as { keys: BigUint64Array };
  queries.forEach((_, q) => exactTop.push(Array.from(exact.keys.subarray(q * 10, q * 10 + 10), (i) => rows[Number(i)]!)));
  console.log(`${admitted.size} vectors in ${folder}: ${indexCandidates(100, count, admitted.size)} candidates asked`);
}
const dot = (r: number, query: Float32Array) => {
  let sum = 0;
  for (let j = 0, base = r * DIMENSION; j < DIMENSION; j += 1) sum += matrix[base + j]! * query[j]!;
  return sum;
};

const p = (values: number[], q: number) => [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor(q * values.length))]!;
/** Rows to measure: candidates asked of the nearest, second nearest, ... partition. */
const candidates = folder === '' ? depth : indexCandidates(100, count, admitted.size);
const shareRows = option('fractions', '') !== ''
  ? option('fractions', '').split(';').map((list) => list.split(',').map((fraction) => Math.ceil(Number(fraction) * candidates)))
  : option('shares', '') !== ''
  ? option('shares', '').split(';').map((list) => list.split(',').map(Number))
  : option('probes', '4,6,8').split(',').map(Number).flatMap((probes) =>
    option('each', '32,64,116').split(',').map(Number).map((each) => Array<number>(probes).fill(each)));
const filterAware = process.argv.includes('--filter-aware');
const routed = process.argv.includes('--route');
/** With --route: the sample entries looked at, and what each routed partition is asked for (default: the list's last share). */
const routeTop = Number(option('route-top', String(ROUTE_NEIGHBOURS)));
const routeShare = Number(option('route-share', '0'));
let holdingPartitions: Set<number> | null = null;
/** The partitions holding at least 1% of an even sample of 512 of the folder's vectors (as the service decides). */
function holding(internals: { centroids: VectorRows }): Set<number> {
  if (holdingPartitions) return holdingPartitions;
  const keys = [...admitted];
  const sample = Array.from({ length: Math.min(512, keys.length) }, (_, i) => keys[Math.floor((i * keys.length) / Math.min(512, keys.length))]!);
  const rows = new Float32Array(sample.length * DIMENSION);
  sample.forEach((key, i) => rows.set(matrix.subarray(rowOf.get(key)! * DIMENSION, (rowOf.get(key)! + 1) * DIMENSION), i * DIMENSION));
  holdingPartitions = centroidsHolding(internals.centroids, rows, 0.01);
  console.log(`${holdingPartitions.size} partitions hold at least 1% of the folder's sample`);
  return holdingPartitions;
}
type Internals = { partitions: UsearchVectorIndex[]; centroids: VectorRows; projection: Projection | null; route: RouteSample | null };
const opened = new Map<number, Internals>();
for (const [shares, withRoute] of shareRows.flatMap((shares) => (routed ? [[shares, false], [shares, true]] : [[shares, false]]) as Array<[number[], boolean]>)) {
  const probes = shares.length;
  if (!opened.has(probes)) {
    const { index } = PartitionedVectorIndex.open(`${dataDir}/vectors`, embedder.model, DIMENSION,
      { ...DEFAULT_HNSW_PARAMETERS, partitionExpansion: expansion, probes, searchThreads: 1 });
    // The probe varies what the index decides itself (how many each partition gives): it reads its graphs directly.
    opened.set(probes, index as unknown as Internals);
  }
  const internals = opened.get(probes)!;
  const times: number[] = [];
  let recall = 0;
  for (let round = 0; round < 2; round += 1) {
    queries.forEach((query, q) => {
      const started = performance.now();
      const found = [];
      const owners = filterAware
        ? [...nearestCentroids(internals.centroids, query, internals.partitions.length)].filter((owner) => holding(internals).has(Number(owner))).slice(0, probes)
        : nearestCentroids(internals.centroids, query, probes);
      // A store whose partitions hold projected vectors (search.index_projection_energy) is searched as the index does.
      const graphQuery = internals.projection ? projectRows(internals.projection, query) : query;
      const asks = Array.from(owners, (owner, n) => [Number(owner), shares[n]!] as [number, number]);
      if (withRoute && internals.route) {
        const extra = internals.route.partitionsNear(graphQuery, routeTop).filter((c) => !asks.some(([asked]) => asked === c)).slice(0, MAX_ROUTED_PROBES);
        asks.push(...extra.map((c) => [c, routeShare || shares.at(-1)!] as [number, number]));
      }
      for (const [owner, share] of asks) found.push(...internals.partitions[owner]!.search(graphQuery, share));
      const pool = found.sort((a, b) => b.score - a.score).slice(0, candidates)
        .filter((item) => folder === '' || admitted.has(item.key));
      if (round === 0) {
        const top = pool.map((item) => ({ row: rowOf.get(item.key)!, score: dot(rowOf.get(item.key)!, query) }))
          .sort((a, b) => b.score - a.score).slice(0, 10);
        const exactRows = exactTop[q]!;
        const tenth = dot(exactRows[9]!, query) - 1e-6;
        recall += top.filter((item) => exactRows.includes(item.row) || item.score >= tenth).length / 10;
      } else {
        times.push(performance.now() - started);
      }
    });
  }
  console.log(`probes ${probes} each ${shares.join('/')}${withRoute ? ' and the route sample\'s' : ''} (explores at least ${expansion}): ` +
    `recall@10 ${(recall / queries.length).toFixed(3)}, index p50 ${p(times, 0.5).toFixed(2)} p95 ${p(times, 0.95).toFixed(2)} ms`);
}
