/**
 * Is it the graph's quantization or its navigation that loses recall at scale (issue 16)? Embeds the bench
 * corpus's first --messages messages with the builtin embedder in process, finds the exact top 10 of the
 * bench's recall questions, then for each --kinds scalar kind (i8, f16, e4m3, ...):
 * - the ceiling: an exact scan in that kind's scores (usearch's own cast, emulated for i8 only), its top
 *   --candidates re-ranked with f32: the best any graph of that kind can do;
 * - the graph: one build (M 64 / 64 / --expansion-search, --threads inserts), its --candidates re-ranked with f32.
 *
 *   npx tsx scripts/graph-quantization-probe.ts --messages 300000 --kinds i8,f16,e4m3 [--ceiling]
 */
import { loadavg } from 'node:os';
import usearch from 'usearch';
import { createBuiltinEmbedder } from '../src/bridge/builtin/embedding/builtin-embedder.js';
import { SHARED_MODEL_CACHE } from '../test/helpers/service-harness.js';
import { DIMENSION, embedCorpus, mean, recallCheck } from './lib/corpus-vectors.js';
import { option } from './lib/probe-options.js';

const size = Number(option('messages', '300000'));
const queryCount = Number(option('queries', '100'));
const threads = Number(option('threads', '2'));
const candidates = option('candidates', '116').split(',').map(Number);
const kinds = option('kinds', 'i8,f16').split(',');
const expansionSearch = Number(option('expansion-search', '384'));
const connectivity = Number(option('connectivity', '64'));
const expansionAdd = Number(option('expansion-add', '64'));

const embedder = await createBuiltinEmbedder({ cacheDir: SHARED_MODEL_CACHE });
const matrix = await embedCorpus(embedder, size);
const { queries, recall } = await recallCheck(embedder, matrix, queryCount);
let started: number;

/** usearch's f32 -> i8 cast for cosine: scaled by 127 / the vector's norm, truncated toward zero. */
function toI8(from: Float32Array): Int8Array {
  let norm = 0;
  for (const v of from) norm += v * v;
  const scale = 127 / Math.sqrt(norm || 1);
  return Int8Array.from(from, (v) => Math.trunc(v * scale));
}

/** The top `n` rows by cosine over i8 vectors: what a perfect i8 graph would return. */
function i8Ceiling(n: number): number[][] {
  const rows = new Int8Array(size * DIMENSION);
  const norms = new Float32Array(size);
  for (let row = 0; row < size; row += 1) {
    const q = toI8(matrix.subarray(row * DIMENSION, (row + 1) * DIMENSION));
    rows.set(q, row * DIMENSION);
    let s = 0;
    for (const v of q) s += v * v;
    norms[row] = Math.sqrt(s) || 1;
  }
  return queries.map((query) => {
    const q = toI8(query);
    const scores = new Float32Array(size);
    for (let row = 0; row < size; row += 1) {
      let s = 0;
      for (let j = 0, base = row * DIMENSION; j < DIMENSION; j += 1) s += rows[base + j]! * q[j]!;
      scores[row] = s / norms[row]!;
    }
    return Array.from(scores.keys()).sort((a, b) => scores[b]! - scores[a]!).slice(0, n);
  });
}

const maxCandidates = Math.max(...candidates);
for (const kind of kinds) {
  if (process.argv.includes('--ceiling') && kind === 'i8') {
    const pools = i8Ceiling(maxCandidates);
    for (const n of candidates) console.log(`i8 exact scan, top ${n} re-ranked: recall@10 ${mean(pools.map((p, q) => recall(q, p.slice(0, n)))).toFixed(3)}`);
  }
  const index = new usearch.Index({ dimensions: DIMENSION, metric: usearch.MetricKind.Cos, quantization: kind as never,
    connectivity, expansion_add: expansionAdd, expansion_search: expansionSearch, multi: false });
  started = performance.now();
  const cpu = process.cpuUsage();
  const step = 32 * Math.max(1, threads);
  for (let from = 0; from < size; from += step) {
    const to = Math.min(size, from + step);
    const keys = new BigUint64Array(to - from);
    for (let i = 0; i < keys.length; i += 1) keys[i] = BigInt(from + i);
    index.add(keys, matrix.subarray(from * DIMENSION, to * DIMENSION), threads);
  }
  const used = process.cpuUsage(cpu);
  console.log(`${kind}: built in ${((performance.now() - started) / 1000).toFixed(1)} s, ` +
    `${((used.user + used.system) / size).toFixed(0)} µs CPU a vector, load ${loadavg()[0]!.toFixed(1)}`);
  for (const n of candidates) {
    const times: number[] = [];
    const per = queries.map((query, q) => {
      const t = performance.now();
      const keys = Array.from((index.search(query, n, 1) as { keys: BigUint64Array }).keys, Number);
      times.push(performance.now() - t);
      return recall(q, keys);
    });
    times.sort((a, b) => a - b);
    console.log(`  graph ${n} re-ranked: recall@10 ${mean(per).toFixed(3)}, under 0.5: ${per.filter((r) => r < 0.5).length}, ` +
      `search p50 ${times[Math.floor(times.length / 2)]!.toFixed(2)} ms`);
  }
}
