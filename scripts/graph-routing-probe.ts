/**
 * Why does the graph miss at a million, and can in-distribution anchors route it (issue 16)? At 1M the exact
 * re-rank of the graph's candidates misses most of the exact ten for about one question in ten, and a wider
 * search (816) does not help. This probe embeds the bench corpus's first --messages messages, builds (or
 * loads, --graph FILE) the service's graph (M 64 / 64 / 384, i8), then compares recall@10 after the exact f32
 * re-rank of:
 * - the graph's --candidates for the question alone;
 * - plus the graph's candidates for each of the question's --anchors nearest anchors, where anchors are
 *   --samples stored vectors picked evenly: real points in the region the question belongs to;
 * - plus every message holding all the question's content words, when at most --and-cap do.
 * --per-question: for each question the graph fails, the exact and found scores, whether each of the exact ten
 * is found by a search for its own vector, and what the three nearest of 16,384 anchors find.
 *
 *   npx tsx scripts/graph-routing-probe.ts --messages 1000000 --graph /tmp/graph-1m.usearch --samples 1024,4096 --anchors 1,2,4 [--per-question]
 */
import { existsSync } from 'node:fs';
import usearch from 'usearch';
import { recallQuestions } from '../bench/lib/search-queries.js';
import { createBuiltinEmbedder } from '../src/bridge/builtin/embedding/builtin-embedder.js';
import { contentWords, stemWord, tokenizeWords } from '../src/bridge/builtin/embedding/text-tokenizer.js';
import { SHARED_MODEL_CACHE } from '../test/helpers/service-harness.js';
import { DIMENSION, embedCorpus, mean, recallCheck } from './lib/corpus-vectors.js';
import { option } from './lib/probe-options.js';

const size = Number(option('messages', '300000'));
const queryCount = Number(option('queries', '100'));
const threads = Number(option('threads', '2'));
const candidates = Number(option('candidates', '116'));
const anchorCandidates = Number(option('anchor-candidates', String(candidates)));
const sampleCounts = option('samples', '1024,4096').split(',').map(Number);
const anchorCounts = option('anchors', '1,2,4').split(',').map(Number);
const graphFile = option('graph', '');

const embedder = await createBuiltinEmbedder({ cacheDir: SHARED_MODEL_CACHE });
const questionTerms = recallQuestions(queryCount).map((q) => [...new Set(contentWords(q).map(stemWord))]);
const wanted = new Set(questionTerms.flat());
const postings = new Map<string, Set<number>>([...wanted].map((t) => [t, new Set<number>()]));
const matrix = await embedCorpus(embedder, size, (row, text) => {
  for (const term of tokenizeWords(text).map(stemWord)) postings.get(term)?.add(row);
});
const { questions, queries, exactKeys, dot, recall } = await recallCheck(embedder, matrix, queryCount);
const rowOf = (row: number) => matrix.subarray(row * DIMENSION, (row + 1) * DIMENSION);
let started: number;

const index = new usearch.Index({ dimensions: DIMENSION, metric: usearch.MetricKind.Cos, quantization: usearch.ScalarKind.I8,
  connectivity: 64, expansion_add: 64, expansion_search: 384, multi: false });
if (graphFile && existsSync(graphFile)) {
  index.load(graphFile);
  console.log(`loaded ${graphFile}: ${index.size()} vectors`);
} else {
  started = performance.now();
  const step = 32 * Math.max(1, threads);
  for (let from = 0; from < size; from += step) {
    const to = Math.min(size, from + step);
    const keys = new BigUint64Array(to - from);
    for (let i = 0; i < keys.length; i += 1) keys[i] = BigInt(from + i);
    index.add(keys, matrix.subarray(from * DIMENSION, to * DIMENSION), threads);
  }
  console.log(`built in ${((performance.now() - started) / 1000).toFixed(1)} s`);
  if (graphFile) index.save(graphFile);
}

const search = (vector: Float32Array, n: number) => Array.from((index.search(vector, n, 1) as { keys: BigUint64Array }).keys, Number);
const time = <T>(times: number[], run: () => T): T => { const t = performance.now(); const value = run(); times.push(performance.now() - t); return value; };
const p50 = (times: number[]) => [...times].sort((a, b) => a - b)[Math.floor(times.length / 2)]!.toFixed(2);

const plainTimes: number[] = [];
const plain = queries.map((query) => time(plainTimes, () => search(query, candidates)));
const plainRecall = plain.map((pool, q) => recall(q, pool));
console.log(`graph ${candidates}: recall@10 ${mean(plainRecall).toFixed(3)}, under 0.5: ${plainRecall.filter((r) => r < 0.5).length}, p50 ${p50(plainTimes)} ms`);

for (const samples of sampleCounts) {
  const stride = size / samples;
  const anchorRows = Array.from({ length: samples }, (_, i) => Math.floor(i * stride));
  const anchorMatrix = new Float32Array(samples * DIMENSION);
  anchorRows.forEach((row, i) => anchorMatrix.set(rowOf(row), i * DIMENSION));
  for (const anchors of anchorCounts) {
    const times: number[] = [];
    const per = queries.map((query, q) => time(times, () => {
      const nearest = usearch.exactSearch(anchorMatrix, query, DIMENSION, anchors, usearch.MetricKind.Cos, 1) as { keys: BigUint64Array };
      const pool = [...plain[q]!];
      for (const key of nearest.keys) pool.push(...search(rowOf(anchorRows[Number(key)]!), anchorCandidates));
      return recall(q, pool);
    }));
    console.log(`+ ${anchors} of ${samples} anchors x ${anchorCandidates}: recall@10 ${mean(per).toFixed(3)}, ` +
      `under 0.5: ${per.filter((r) => r < 0.5).length}, extra p50 ${p50(times)} ms (with the re-rank in JS)`);
  }
}

if (process.argv.includes('--per-question')) {
  // For each question the graph fails: are its exact ten reachable at all (does a search for one's own vector find it)?
  plainRecall.forEach((r, q) => {
    if (r >= 0.5) return;
    const query = queries[q]!;
    const exactScores = exactKeys[q]!.map((row) => dot(row, query).toFixed(3)).join(' ');
    const found = [...plain[q]!].map((row) => dot(row, query)).sort((a, b) => b - a).slice(0, 3).map((s) => s.toFixed(3)).join(' ');
    const selfFound = exactKeys[q]!.map((row) => search(rowOf(row), 10).includes(row) ? 'y' : 'n').join('');
    console.log(`${JSON.stringify(questions[q])}: recall ${r}; exact ${exactScores}; graph best ${found}; exact ten find themselves ${selfFound}`);
    const anchorRows = Array.from({ length: 16384 }, (_, i) => Math.floor(i * size / 16384));
    const best = anchorRows.map((row) => ({ row, score: dot(row, query) })).sort((a, b) => b.score - a.score).slice(0, 3);
    for (const anchor of best) {
      const pool = search(rowOf(anchor.row), 116);
      const top = pool.map((row) => dot(row, query)).sort((a, b) => b - a)[0]!;
      console.log(`  anchor ${anchor.row} cos ${anchor.score.toFixed(3)}: its search finds itself ${pool.includes(anchor.row)}, best cos to the question ${top.toFixed(3)}`);
    }
  });
}

// Messages holding every content word of the question (at most --and-cap of them), scored exactly beside the graph's.
const andCap = Number(option('and-cap', '2000'));
const andPools = questionTerms.map((terms) => {
  const lists = terms.map((t) => postings.get(t)!).sort((a, b) => a.size - b.size);
  if (lists.length === 0) return [];
  return [...lists[0]!].filter((row) => lists.every((list) => list.has(row)));
});
const andRecall = andPools.map((pool, q) => recall(q, [...plain[q]!, ...(pool.length <= andCap ? pool : [])]));
console.log(`graph + AND matches (<= ${andCap}): recall@10 ${mean(andRecall).toFixed(3)}, under 0.5: ${andRecall.filter((r) => r < 0.5).length}; ` +
  `AND sizes p50 ${andPools.map((p) => p.length).sort((a, b) => a - b)[andPools.length >> 1]} max ${Math.max(...andPools.map((p) => p.length))}`);
andRecall.forEach((r, q) => { if (plainRecall[q]! < 0.5) console.log(`  ${JSON.stringify(questions[q])}: AND matches ${andPools[q]!.length}, recall ${plainRecall[q]} -> ${r}`); });
