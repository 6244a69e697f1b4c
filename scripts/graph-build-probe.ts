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
 * --threads N inserts with usearch's threaded add, in slices of --slice (256) vectors a thread; --shuffle inserts
 * each slice in a seeded random order; --interleave N takes each thread's runs of a batch of N a thread from its
 * own part of the batch. The service inserts 32 a thread a slice on two threads at least.
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
import { option } from './lib/probe-options.js';

type UsearchIndex = InstanceType<typeof usearch.Index>;

const load = () => loadavg().map((v) => v.toFixed(1)).join(' ');
const cpuUs = (since: NodeJS.CpuUsage) => { const used = process.cpuUsage(since); return used.user + used.system; };
const size = Number(option('messages', '200000'));
const queryCount = Number(option('queries', '100'));
const configs = option('configs', 'full:64/64/384').split(',');
const candidateCounts = option('candidates', '116').split(',').map(Number);
const threads = Number(option('threads', '1'));
const slicePerThread = Number(option('slice', '256'));
/** --shuffle: each slice is inserted in a seeded random order rather than in key order. */
const shuffle = process.argv.includes('--shuffle');
const interleave = Number(option('interleave', '0'));
/** --per-question: prints each question that gets under half its exact ten, with its exact and found scores. */
const perQuestion = process.argv.includes('--per-question');
/** --reachability N: searches the graph for N sampled vectors by their own vector and counts those it misses. */
const reachability = Number(option('reachability', '0'));
const DIMENSION = 768;

/** Row i: the builtin vector of the bench corpus's message i (10-message conversations of seed 42, as the scale bench sends). */
async function embedCorpus(embedder: Awaited<ReturnType<typeof createBuiltinEmbedder>>): Promise<Float32Array> {
  const matrix = new Float32Array(size * DIMENSION);
  let row = 0;
  for (let c = 0; row < size; c += 1) {
    const conversation = generateConversation(c, { seed: 42, messagesPerConversation: 10 });
    for (const vector of await embedder.embed(conversation.messages.map((m) => m.content))) {
      if (row >= size) break;
      matrix.set(vector, row * DIMENSION);
      row += 1;
    }
  }
  return matrix;
}

const dotRow = (matrix: Float32Array, row: number, query: Float32Array) => {
  let sum = 0;
  const base = row * DIMENSION;
  for (let j = 0; j < DIMENSION; j += 1) sum += matrix[base + j]! * query[j]!;
  return sum;
};

/** A seeded Gaussian projection to `dims` floats (Box-Muller), normalized: cosine stays the graph's metric. */
function projector(dims: number): (vector: Float32Array) => Float32Array {
  const rng = createRng(1234);
  const weights = new Float32Array(dims * DIMENSION);
  for (let i = 0; i < weights.length; i += 2) {
    const radius = Math.sqrt(-2 * Math.log(Math.max(1e-12, rng.next())));
    const angle = 2 * Math.PI * rng.next();
    weights[i] = radius * Math.cos(angle);
    if (i + 1 < weights.length) weights[i + 1] = radius * Math.sin(angle);
  }
  return (vector) => {
    const out = new Float32Array(dims);
    let norm = 0;
    for (let i = 0; i < dims; i += 1) {
      let sum = 0;
      for (let j = 0; j < DIMENSION; j += 1) sum += weights[i * DIMENSION + j]! * vector[j]!;
      out[i] = sum;
      norm += sum * sum;
    }
    const inverse = 1 / Math.sqrt(norm || 1);
    for (let i = 0; i < dims; i += 1) out[i]! *= inverse;
    return out;
  };
}

interface Layout {
  name: string;
  project: (vector: Float32Array) => Float32Array;
  dims: number;
  segmentSize: number;
  create: () => UsearchIndex;
}

function layoutOf(spec: string): Layout {
  const [kind, params] = spec.split(':') as [string, string];
  const [connectivity, expansionAdd, expansionSearch] = params.split('/').map(Number);
  const dims = kind.startsWith('p') ? parseInt(kind.slice(1), 10) : DIMENSION;
  return {
    name: spec,
    dims,
    project: dims === DIMENSION ? (vector) => vector : projector(dims),
    segmentSize: kind.startsWith('s') ? parseInt(kind.slice(1), 10) : size,
    create: () => new usearch.Index({
      dimensions: dims, metric: usearch.MetricKind.Cos,
      quantization: kind.endsWith('f16') ? usearch.ScalarKind.F16 : usearch.ScalarKind.I8,
      connectivity: connectivity!, expansion_add: expansionAdd!, expansion_search: expansionSearch!, multi: false,
    }),
  };
}

/**
 * Inserts every row, one add of --slice (256) a thread at a time, starting a new graph at each segment boundary:
 * in key order, unless --interleave or --shuffle reorders each batch.
 */
function build(layout: Layout, data: Float32Array): UsearchIndex[] {
  const segments: UsearchIndex[] = [];
  const slice = (interleave ? interleave : slicePerThread) * Math.max(1, threads);
  const rng = createRng(99);
  for (let start = 0; start < size;) {
    if (start % layout.segmentSize === 0) segments.push(layout.create());
    const end = Math.min(size, start + slice, (Math.floor(start / layout.segmentSize) + 1) * layout.segmentSize);
    const keyOrder = Array.from({ length: end - start }, (_, i) => start + i);
    const order = interleave ? interleaved(keyOrder) : keyOrder;
    if (shuffle) {
      for (let i = order.length - 1; i > 0; i -= 1) {
        const j = Math.floor(rng.next() * (i + 1));
        [order[i], order[j]] = [order[j]!, order[i]!];
      }
    }
    // One add a slice of --slice a thread (with --interleave, a batch is several slices).
    const step = slicePerThread * Math.max(1, threads);
    for (let from = 0; from < order.length; from += step) {
      const chunk = order.slice(from, from + step);
      const keys = new BigUint64Array(chunk.map((row) => BigInt(row)));
      const rows = new Float32Array(chunk.length * layout.dims);
      chunk.forEach((row, i) => rows.set(data.subarray(row * layout.dims, (row + 1) * layout.dims), i * layout.dims));
      segments[segments.length - 1]!.add(keys, rows, threads);
    }
    start = end;
  }
  return segments;
}

/**
 * --interleave N: a slice of N a thread is cut into runs of --slice, thread t's runs taken from the t-th part
 * (usearch gives each thread a contiguous share of a slice), so the concurrent inserts are N apart.
 */
function interleaved(batch: readonly number[]): number[] {
  const parts = Math.max(1, threads);
  const part = Math.ceil(batch.length / parts);
  const order: number[] = [];
  for (let run = 0; run * slicePerThread < part; run += 1) {
    for (let t = 0; t < parts; t += 1) {
      const from = t * part + run * slicePerThread;
      order.push(...batch.slice(from, Math.min(from + slicePerThread, (t + 1) * part)));
    }
  }
  return order;
}

/** The `k` nearest keys over every segment, merged by the graphs' own distances. */
function searchAll(segments: UsearchIndex[], query: Float32Array, k: number): number[] {
  const found: Array<{ key: number; distance: number }> = [];
  for (const segment of segments) {
    const matches = segment.search(query, k, 1) as { keys: BigUint64Array; distances: Float32Array };
    for (let i = 0; i < matches.keys.length; i += 1) found.push({ key: Number(matches.keys[i]), distance: matches.distances[i]! });
  }
  return found.sort((a, b) => a.distance - b.distance).slice(0, k).map((item) => item.key);
}

const embedder = await createBuiltinEmbedder({ cacheDir: SHARED_MODEL_CACHE });
let started = performance.now();
const matrix = await embedCorpus(embedder);
console.log(`embedded ${size} in ${((performance.now() - started) / 1000).toFixed(1)} s`);
const queries = await embedder.embed(recallQuestions(queryCount));
const queryMatrix = new Float32Array(queryCount * DIMENSION);
queries.forEach((query, i) => queryMatrix.set(query, i * DIMENSION));
started = performance.now();
const exact = usearch.exactSearch(matrix, queryMatrix, DIMENSION, 10, usearch.MetricKind.Cos, 0) as { keys: BigUint64Array };
console.log(`exact top 10 in ${((performance.now() - started) / 1000).toFixed(1)} s`);
const exactKeys = queries.map((_, q) => Array.from(exact.keys.subarray(q * 10, q * 10 + 10), Number));
// A result as close as the exact 10th counts as well under "ties" (the corpus repeats its small vocabulary).
const tenth = exactKeys.map((keys, q) => dotRow(matrix, keys[9]!, queries[q]!) - 1e-6);

for (const spec of configs) {
  const layout = layoutOf(spec);
  const data = layout.dims === DIMENSION ? matrix : new Float32Array(size * layout.dims);
  if (data !== matrix) for (let row = 0; row < size; row += 1) data.set(layout.project(matrix.subarray(row * DIMENSION, (row + 1) * DIMENSION)), row * layout.dims);
  const cpu0 = process.cpuUsage();
  started = performance.now();
  const segments = build(layout, data);
  const wall = performance.now() - started;
  console.log(`${layout.name}: ${segments.length} graph(s), insert ${(cpuUs(cpu0) / size).toFixed(0)} µs CPU a vector, ` +
    `${(wall / 1000).toFixed(1)} s wall (${((size / wall) * 1000).toFixed(0)}/s), load ${load()}`);
  if (reachability > 0) {
    const rng = createRng(7);
    let unreached = 0;
    for (let i = 0; i < reachability; i += 1) {
      const row = Math.floor(rng.next() * size);
      const found = searchAll(segments, layout.project(matrix.subarray(row * DIMENSION, (row + 1) * DIMENSION)), 10);
      if (!found.includes(row) && dotRow(matrix, found[0] ?? row, matrix.subarray(row * DIMENSION, (row + 1) * DIMENSION)) < 0.999) unreached += 1;
    }
    console.log(`  ${unreached} of ${reachability} sampled vectors not found by their own vector`);
  }
  for (const candidates of candidateCounts) {
    let strict = 0;
    let ties = 0;
    let lost = 0;
    const cpus: number[] = [];
    queries.forEach((query, q) => {
      const c0 = process.cpuUsage();
      const keys = searchAll(segments, layout.project(query), candidates);
      const best = keys.map((key) => ({ key, score: dotRow(matrix, key, query) })).sort((a, b) => b.score - a.score).slice(0, 10);
      cpus.push(cpuUs(c0));
      const hits = best.filter((item) => exactKeys[q]!.includes(item.key)).length;
      strict += hits;
      if (hits < 5) lost += 1;
      if (perQuestion && hits < 5) {
        const first = exactKeys[q]![0]!;
        const self = searchAll(segments, layout.project(matrix.subarray(first * DIMENSION, (first + 1) * DIMENSION)), 10);
        console.log(`    lost q${q}: exact 1st found by its own vector: ${self.includes(first)}; exact 1st ${dotRow(matrix, exactKeys[q]![0]!, query).toFixed(3)}, 10th ${(tenth[q]! + 1e-6).toFixed(3)}, ` +
          `found best ${best[0]?.score.toFixed(3)}, hits ${hits}: ${recallQuestions(queryCount)[q]}`);
      }
      ties += best.filter((item) => item.score >= tenth[q]!).length;
    });
    cpus.sort((a, b) => a - b);
    console.log(`  ${candidates} candidates: recall@10 ${(strict / (10 * queryCount)).toFixed(3)} (counting ties ${(ties / (10 * queryCount)).toFixed(3)}; ${lost} questions under 0.5); ` +
      `search and re-rank CPU p50 ${cpus[queryCount >> 1]} µs, p95 ${cpus[Math.floor(queryCount * 0.95)]} µs`);
  }
}
