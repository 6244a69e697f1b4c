/**
 * HNSW graph layouts at up to 1,000,000 vectors without a store (issue 16): embeds the bench corpus's first
 * --messages messages with the builtin embedder in process (about 60 s a million), finds the exact top 10 of
 * the bench's 100 recall questions with usearch's exact search, then builds one graph per --configs entry and
 * prints insert CPU a vector, recall@10 after the exact f32 re-rank of --candidates (strict, and counting ties
 * with the exact 10th) and the CPU of a search with its re-rank.
 *
 *   npx tsx scripts/graph-build-probe.ts --messages 1000000 --threads 2 --configs full:64/64/384,s250000:64/64/384
 *   npx tsx scripts/graph-build-probe.ts --messages 100000 --configs full:64/64/384,p128:32/64/256,p256f16:32/64/256
 *
 * A config is KIND:M/expansion_add/expansion_search. KIND: `full` (the 768 floats, i8), `pN` (a seeded
 * Gaussian projection to N floats, normalized; i8, or f16 with an `f16` suffix), `sN` (segments of N vectors,
 * each its own graph, searched all and merged by distance).
 */
import { loadavg } from 'node:os';
import usearch from 'usearch';
import { generateConversation } from '../bench/lib/corpus.js';
import { createBuiltinEmbedder } from '../src/bridge/builtin/embedding/builtin-embedder.js';
import { recallQuestions } from '../bench/lib/search-queries.js';
import { SHARED_MODEL_CACHE } from '../test/helpers/service-harness.js';
import { createRng } from '../bench/lib/prng.js';

const opt = (n: string, f: string) => { const i = process.argv.indexOf(`--${n}`); return i >= 0 ? process.argv[i + 1]! : f; };
const load = () => loadavg().map((v) => v.toFixed(1)).join(' ');
const N = Number(opt('messages', '200000'));
const Q = Number(opt('queries', '100'));
const configs = opt('configs', 'full:64/64/384').split(',');
const candidateCounts = opt('candidates', '116').split(',').map(Number);
const threads = Number(opt('threads', '1'));

const embedder = await createBuiltinEmbedder({ cacheDir: SHARED_MODEL_CACHE });
const D = 768;
const matrix = new Float32Array(N * D);
let t0 = performance.now();
{
  let row = 0;
  for (let c = 0; row < N; c += 1) {
    const conv = generateConversation(c, { seed: 42, messagesPerConversation: 10 });
    const vectors = await embedder.embed(conv.messages.map((m) => m.content));
    for (const v of vectors) { if (row >= N) break; matrix.set(v, row * D); row += 1; }
  }
}
console.log(`embedded ${N} in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
const queries = await embedder.embed(recallQuestions(Q));
const qmat = new Float32Array(Q * D); queries.forEach((q, i) => qmat.set(q, i * D));
t0 = performance.now();
const exact = usearch.exactSearch(matrix, qmat, D, 10, usearch.MetricKind.Cos, 0) as any;
console.log(`exact in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
const exactSets: Set<number>[] = []; const tenth: number[] = [];
for (let q = 0; q < Q; q += 1) {
  const keys = Array.from(exact.keys.slice(q * 10, q * 10 + 10), Number);
  exactSets.push(new Set(keys));
  tenth.push(dotRow(keys[9]!, queries[q]!) - 1e-6);
}
function dotRow(row: number, q: Float32Array): number { let s = 0; const b = row * D; for (let j = 0; j < D; j += 1) s += matrix[b + j]! * q[j]!; return s; }

function projector(dims: number): (v: Float32Array) => Float32Array {
  const rng = createRng(1234);
  // Gaussian via Box-Muller, row-major dims x D
  const P = new Float32Array(dims * D);
  for (let i = 0; i < P.length; i += 2) {
    const u = Math.max(1e-12, rng.next()), w = rng.next();
    const r = Math.sqrt(-2 * Math.log(u));
    P[i] = r * Math.cos(2 * Math.PI * w); if (i + 1 < P.length) P[i + 1] = r * Math.sin(2 * Math.PI * w);
  }
  return (v) => {
    const out = new Float32Array(dims);
    for (let i = 0; i < dims; i += 1) { let s = 0; const b = i * D; for (let j = 0; j < D; j += 1) s += P[b + j]! * v[j]!; out[i] = s; }
    let n = 0; for (let i = 0; i < dims; i += 1) n += out[i]! * out[i]!; n = 1 / Math.sqrt(n || 1); for (let i = 0; i < dims; i += 1) out[i]! *= n;
    return out;
  };
}

for (const spec of configs) {
  const [kind, params] = spec.split(':');
  const [M, efAdd, efSearch] = params!.split('/').map(Number);
  const q8 = kind!.endsWith('f16') ? usearch.ScalarKind.F16 : usearch.ScalarKind.I8;
  const dims = kind!.startsWith('p') ? parseInt(kind!.slice(1), 10) : D;
  const project = dims === D ? (v: Float32Array) => v : projector(dims);
  let data: Float32Array;
  t0 = performance.now();
  if (dims === D) data = matrix; else {
    data = new Float32Array(N * dims);
    for (let r = 0; r < N; r += 1) data.set(project(matrix.subarray(r * D, r * D + D)), r * dims);
  }
  const projMs = performance.now() - t0;
  const segSize = kind!.startsWith('s') ? parseInt(kind!.slice(1), 10) : N;
  const segments: any[] = [];
  const c0 = process.cpuUsage(); t0 = performance.now();
  const B = 32 * Math.max(1, threads * 8);
  for (let s = 0; s < N; s += B) {
    if (s % segSize === 0 || segments.length === 0) segments.push(new usearch.Index({ dimensions: dims, metric: usearch.MetricKind.Cos, quantization: q8, connectivity: M!, expansion_add: efAdd!, expansion_search: efSearch!, multi: false }));
    const e = Math.min(N, s + B, (Math.floor(s / segSize) + 1) * segSize);
    const keys = new BigUint64Array(e - s); for (let i = s; i < e; i += 1) keys[i - s] = BigInt(i);
    segments[segments.length - 1].add(keys, data.subarray(s * dims, e * dims), threads);
    if (e !== s + B && e < N) { s = e - B; }
  }
  const cu = process.cpuUsage(c0); const wall = performance.now() - t0;
  console.log(`${spec}: ${segments.length} segments, project ${(projMs / N * 1000).toFixed(0)} µs/v, build ${((cu.user + cu.system) / N).toFixed(0)} µs CPU/v, wall ${(wall / 1000).toFixed(1)} s (${(N / wall * 1000).toFixed(0)}/s), load ${load()}`);
  const index = { search(v: Float32Array, k: number) {
    if (segments.length === 1) return segments[0].search(v, k, 1);
    const all: Array<{ k: bigint; d: number }> = [];
    for (const seg of segments) { const f = seg.search(v, k, 1); for (let i = 0; i < f.keys.length; i += 1) all.push({ k: f.keys[i], d: f.distances[i] }); }
    all.sort((a, b) => a.d - b.d);
    return { keys: BigUint64Array.from(all.slice(0, k).map((x) => x.k)) };
  } };
  for (const cand of candidateCounts) {
    let strict = 0, ties = 0; const cpu: number[] = [];
    for (let q = 0; q < Q; q += 1) {
      const pq = project(queries[q]!);
      const c1 = process.cpuUsage();
      const found = index.search(pq, cand) as any;
      const keys = Array.from(found.keys as BigUint64Array, Number);
      const scored = keys.map((k) => ({ k, s: dotRow(k, queries[q]!) })).sort((a, b) => b.s - a.s).slice(0, 10);
      const cc = process.cpuUsage(c1); cpu.push(cc.user + cc.system);
      strict += scored.filter((x) => exactSets[q]!.has(x.k)).length;
      ties += scored.filter((x) => x.s >= tenth[q]!).length;
    }
    cpu.sort((a, b) => a - b);
    console.log(`   ${cand} cand: recall strict ${(strict / Q / 10).toFixed(3)} ties ${(ties / Q / 10).toFixed(3)}; search+rerank CPU p50 ${cpu[Q >> 1]} µs p95 ${cpu[Math.floor(Q * 0.95)]} µs`);
  }
}
