/**
 * HNSW graph parameters against the exact re-rank (issue 16): builds one usearch index per
 * connectivity / expansion_add setting from the same stored f32 vectors of a memsvc SQLite store, as the
 * index thread does (i8 by default, or --quantization f16; slices of 32, one thread), then asks held-out
 * stored vectors for `candidates` neighbours, re-ranks them exactly with the f32 vectors (as sqlite-vector-search.ts does) and compares
 * the top 10 with an exact scan over every indexed vector. Prints CPU a vector for the build, recall@10
 * and the index search's p50 / p95 (wall and CPU), with the load average beside each line.
 *
 *   npx tsx scripts/hnsw-params-probe.ts --db /tmp/perf-probe-100k/memsvc.db --vectors 40000 --queries 100 \
 *     --configs 32/200/128,16/64/128,16/100/128 --candidates 116,232 [--questions] [--quantization i8|f16]
 *
 * The store is opened read-only; seed one with `scripts/perf-probe.ts --phase seed`.
 */
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import usearch from 'usearch';
import { exactTopK, packVectors } from '../src/domain/exact-search.js';
import { blobToVector } from '../src/adapters/sqlite/sqlite-embedding.queue.js';
import { createBuiltinEmbedder } from '../src/bridge/builtin/embedding/builtin-embedder.js';
import { recallQuestions } from '../bench/lib/search-queries.js';
import { SHARED_MODEL_CACHE } from '../test/helpers/service-harness.js';
import { DEFAULT_HNSW_PARAMETERS, SCALAR_KINDS, type IndexQuantization } from '../src/adapters/vector/usearch-vector.index.js';
import { option } from './lib/probe-options.js';

const load = () => loadavg().map((v) => v.toFixed(1)).join(' ');
const cpuUs = (since: NodeJS.CpuUsage) => { const u = process.cpuUsage(since); return u.user + u.system; };
const pct = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))]!;
};

const dbFile = option('db', '/tmp/perf-probe-100k/memsvc.db');
const size = Number(option('vectors', '40000'));
const queryCount = Number(option('queries', '100'));
const configs = option('configs', '32/200/128,16/64/128').split(',').map((text) => {
  const [connectivity, expansionAdd, expansionSearch] = text.split('/').map(Number);
  return { connectivity: connectivity!, expansionAdd: expansionAdd!, expansionSearch: expansionSearch ?? 128 };
});
const candidateCounts = option('candidates', '116').split(',').map(Number);
// --questions: the bench's natural-language questions, plus short queries of the corpus's topic words (--queries
// in all), embedded with the builtin embedder, instead of held-out stored vectors.
const questions = process.argv.includes('--questions');
// --quantization i8|f16: how the graph stores its vectors (the service's search.index_quantization).
const quantization = option('quantization', DEFAULT_HNSW_PARAMETERS.quantization);
if (!Object.hasOwn(SCALAR_KINDS, quantization)) throw new Error(`--quantization: ${Object.keys(SCALAR_KINDS).join(' or ')}, not ${quantization}`);
const scalarKind = SCALAR_KINDS[quantization as IndexQuantization];


const db = new Database(dbFile, { readonly: true });
const rows = db.prepare('SELECT message_seq AS key, vector FROM message_vectors ORDER BY message_seq LIMIT ?')
  .all(size + queryCount) as Array<{ key: number; vector: Buffer }>;
db.close();
if (rows.length < size + queryCount) throw new Error(`the store holds ${rows.length} vectors, fewer than ${size + queryCount}`);
const dimension = rows[0]!.vector.byteLength / 4;
// The first `size` rows are indexed; the next `queryCount` are held-out queries.
const stored = rows.slice(0, size).map((row) => ({ key: row.key, vector: blobToVector(row.vector) }));
const queries = questions
  ? await (await createBuiltinEmbedder({ cacheDir: SHARED_MODEL_CACHE })).embed(recallQuestions(queryCount))
  : rows.slice(size).map((row) => blobToVector(row.vector));
console.log(`${stored.length} vectors of ${dimension} floats from ${dbFile}, ${queries.length} ` +
  `${questions ? 'bench and topic-word questions' : 'held-out stored vectors'} as queries, load ${load()}`);

const storedPacked = packVectors(stored, dimension);
const exactTop = queries.map((query) => exactTopK(query, storedPacked, 10));
const exact = exactTop.map((top) => new Set(top.map((item) => item.key)));
// A result scoring at least the exact 10th best is as good as it (the corpus repeats texts, so ties are common).
const tenth = exactTop.map((top) => top[top.length - 1]!.score - 1e-6);
const byKey = new Map(stored.map((item) => [item.key, item.vector]));

for (const config of configs) {
  const index = new usearch.Index({
    dimensions: dimension, metric: usearch.MetricKind.Cos, quantization: scalarKind,
    connectivity: config.connectivity, expansion_add: config.expansionAdd, expansion_search: config.expansionSearch, multi: false,
  });
  const loadBefore = load();
  const wall0 = performance.now();
  const cpu0 = process.cpuUsage();
  for (let start = 0; start < stored.length; start += 32) {
    const slice = stored.slice(start, start + 32);
    const matrix = new Float32Array(slice.length * dimension);
    slice.forEach((item, i) => matrix.set(item.vector, i * dimension));
    index.add(new BigUint64Array(slice.map((item) => BigInt(item.key))), matrix, 1);
  }
  const buildCpu = cpuUs(cpu0);
  const buildWall = performance.now() - wall0;
  const saveDir = mkdtempSync(join(tmpdir(), 'hnsw-probe-'));
  index.save(join(saveDir, 'index.usearch'));
  const fileBytes = statSync(join(saveDir, 'index.usearch')).size;
  rmSync(saveDir, { recursive: true, force: true });
  console.log(`${quantization}, M ${config.connectivity} / add ${config.expansionAdd} / search ${config.expansionSearch}: build ` +
    `${(buildCpu / stored.length).toFixed(0)} µs CPU a vector, ${(buildWall / 1000).toFixed(1)} s wall, ` +
    `saved file ${(fileBytes / stored.length).toFixed(0)} B a vector, load ${loadBefore} -> ${load()}`);
  for (const candidates of candidateCounts) {
    let hits = 0;
    let rawHits = 0;
    let tieHits = 0;
    const walls: number[] = [];
    const cpus: number[] = [];
    for (let round = 0; round < 3; round += 1) {
      queries.forEach((query, q) => {
        const t0 = performance.now();
        const c0 = process.cpuUsage();
        const found = index.search(query, candidates, 1);
        cpus.push(cpuUs(c0));
        walls.push((performance.now() - t0) * 1000);
        if (round > 0) return;
        const keys = Array.from(found.keys, Number);
        rawHits += keys.slice(0, 10).filter((key) => exact[q]!.has(key)).length;
        const reranked = exactTopK(query, packVectors(keys.map((key) => ({ key, vector: byKey.get(key)! })), dimension), 10);
        hits += reranked.filter((item) => exact[q]!.has(item.key)).length;
        tieHits += reranked.filter((item) => item.score >= tenth[q]!).length;
      });
    }
    console.log(`  ${candidates} candidates: recall@10 ${(hits / (10 * queries.length)).toFixed(3)} after the exact re-rank ` +
      `(${(tieHits / (10 * queries.length)).toFixed(3)} counting ties with the 10th, ${(rawHits / (10 * queries.length)).toFixed(3)} index order), index search p50 ${pct(walls, 0.5).toFixed(0)} µs wall ` +
      `(${pct(cpus, 0.5).toFixed(0)} µs CPU), p95 ${pct(walls, 0.95).toFixed(0)} µs wall, load ${load()}`);
  }
}
