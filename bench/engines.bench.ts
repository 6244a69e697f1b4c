/**
 * The vector index alone, in process: one usearch graph built from the builtin engine's vectors of real dialogue
 * text (or the bench's generator), then the semantic search's candidate counts and exact re-rank
 * (sqlite-vector-search.ts) asked the corpus's questions, with recall@10 against an exact scan under no filter and
 * folder filters of 10% / 1% / 0.1%. Reports the insert rate, memory, load time and, per expansion_search, recall and
 * latency: how the search.index_* defaults were chosen (bench/RESULTS.md, "Vector engines").
 *
 *   npm run bench -- engines [--corpus dialogue|generator] [--messages 100000] [--connectivity 16]
 *     [--expansion-add 128] [--expansion-search 384,1000,2000]
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import usearch from 'usearch';
import { createBuiltinEmbedder } from '../src/bridge/builtin/embedding/builtin-embedder.js';
import { exactTopK } from '../src/domain/exact-search.js';
import { indexCandidates, unfilteredCandidates } from '../src/vector-index/graph-candidates.js';
import { SHARED_MODEL_CACHE } from '../test/helpers/service-harness.js';
import { generateConversation } from './lib/corpus.js';
import { folderOf, loadDialogueCorpus, SELECTIVE_FOLDERS } from './lib/dialogue-corpus.js';
import type { Measurement, Scenario } from './lib/scenario.js';
import { recallQuestions } from './lib/search-queries.js';
import { round, summarize } from './lib/stats.js';

const DEPTH = 100;
const MESSAGES_PER_CONVERSATION = 10;
/** As sqlite-vector-search.ts: filters admitting at most this many vectors are ranked by an exact scan. */
const EXACT_MAX_CANDIDATES = 4000;
const RERANKED = 400;

interface Corpus { texts(from: number, to: number): string[]; questions: readonly string[] }

function corpusOf(name: string, questions: number): Corpus {
  if (name === 'generator') {
    return {
      questions: recallQuestions(questions),
      texts: (from, to) => conversationTexts(from, to, (c) => generateConversation(c, { seed: 42, messagesPerConversation: MESSAGES_PER_CONVERSATION }).messages),
    };
  }
  if (name !== 'dialogue') throw new Error(`--corpus: dialogue or generator, not ${name}`);
  const dialogue = loadDialogueCorpus();
  return { questions: dialogue.questions.slice(0, questions), texts: (from, to) => conversationTexts(from, to, (c) => dialogue.conversation(c).messages) };
}

function conversationTexts(from: number, to: number, messagesOf: (conversation: number) => Array<{ content: string }>): string[] {
  const texts: string[] = [];
  for (let row = from; row < to;) {
    const conversation = Math.floor(row / MESSAGES_PER_CONVERSATION);
    const messages = messagesOf(conversation);
    for (let j = row - conversation * MESSAGES_PER_CONVERSATION; j < MESSAGES_PER_CONVERSATION && row < to; j += 1, row += 1) texts.push(messages[j]!.content);
  }
  return texts;
}

/** Row → folder as the dialogue corpus assigns conversations (a tenth, a hundredth, a thousandth). */
const folderOfRow = (row: number) => folderOf(Math.floor(row / MESSAGES_PER_CONVERSATION));

export const scenario: Scenario = {
  name: 'engines',
  description: 'issue 53: the vector index in process on real text: insert rate, memory, recall@10 vs exact and latency per expansion_search',
  options: {
    corpus: { kind: 'string', description: 'dialogue (LoCoMo dev turns recombined) or generator', default: 'dialogue' },
    messages: { kind: 'number', description: 'vectors in the graph', default: 100_000, quick: 20_000 },
    questions: { kind: 'number', description: 'questions asked per row', default: 200, quick: 50 },
    connectivity: { kind: 'number', description: 'M', default: 16 },
    'expansion-add': { kind: 'number', description: 'expansion_add', default: 128 },
    'expansion-search': { kind: 'numbers', description: 'expansion_search values to measure', default: [384, 1000, 2000], quick: [384] },
  },
  async run(context) {
    const size = context.number('messages');
    const corpus = corpusOf(context.string('corpus'), context.number('questions'));
    const embedder = await createBuiltinEmbedder({ cacheDir: SHARED_MODEL_CACHE });
    const dimension = embedder.dimension;
    const vectors = new Float32Array(size * dimension);
    const embedStart = performance.now();
    for (let from = 0; from < size; from += 4096) {
      const to = Math.min(size, from + 4096);
      (await embedder.embed(corpus.texts(from, to))).forEach((vector, i) => vectors.set(vector, (from + i) * dimension));
    }
    context.log(`embedded ${size} messages in ${round((performance.now() - embedStart) / 1000, 1)} s`);
    const queries = await embedder.embed(corpus.questions);
    const rowsOf = new Map<string, number[]>([['none', []], ...SELECTIVE_FOLDERS.map(({ folder }) => [folder, []] as [string, number[]])]);
    for (let row = 0; row < size; row += 1) rowsOf.get(folderOfRow(row))?.push(row);
    const exactBest = (query: Float32Array, rows: readonly number[], k: number) => exactTopK(query, { keys: rows, matrix: packRows(vectors, rows, dimension), dimension }, k);
    const packedOf = (filter: string) => {
      const keys = filter === 'none' ? Array.from({ length: size }, (_, row) => row) : rowsOf.get(filter)!;
      return { keys, matrix: filter === 'none' ? vectors : packRows(vectors, keys, dimension), dimension };
    };
    const exact = new Map([...rowsOf.keys()].map((filter) => {
      const packed = packedOf(filter);
      return [filter, queries.map((query) => exactTopK(query, packed, 10))];
    }));
    context.log('exact top ten of every question under every filter');

    const rssBefore = process.memoryUsage().rss;
    const graphWith = (expansionSearch: number) => new usearch.Index({
      dimensions: dimension, metric: usearch.MetricKind.Cos, quantization: usearch.ScalarKind.I8,
      connectivity: context.number('connectivity'), expansion_add: context.number('expansion-add'), expansion_search: expansionSearch, multi: false,
    });
    let graph = graphWith(384);
    const buildStart = performance.now();
    for (let from = 0; from < size; from += 2048) {
      const to = Math.min(size, from + 2048);
      graph.add(BigUint64Array.from({ length: to - from }, (_, i) => BigInt(from + i)), vectors.subarray(from * dimension, to * dimension), 2);
    }
    const buildMs = performance.now() - buildStart;
    const graphMiB = (process.memoryUsage().rss - rssBefore) / 2 ** 20;
    const dir = mkdtempSync(join(tmpdir(), 'memsvc-engines-'));
    const file = join(dir, 'graph.usearch');
    graph.save(file);
    const loadStart = performance.now();
    graphWith(384).load(file);
    const loadMs = performance.now() - loadStart;

    const measurements: Measurement[] = [];
    const notes = [
      `${size} vectors of ${context.string('corpus')} text, M ${context.number('connectivity')}, expansion_add ${context.number('expansion-add')}, i8, two insert threads:` +
      ` ${Math.round(size / (buildMs / 1000))} vectors/s, graph ~${Math.round(graphMiB)} MiB RSS, loaded from its file in ${Math.round(loadMs)} ms`,
    ];
    for (const expansion of context.numbers('expansion-search')) {
      // The file does not hold expansion_search: a graph read back takes its constructor's.
      graph = graphWith(expansion);
      graph.load(file);
      for (const [filter, rows] of rowsOf) {
        const matching = filter === 'none' ? size : rows.length;
        if (filter !== 'none' && matching <= EXACT_MAX_CANDIDATES) {
          if (expansion === context.numbers('expansion-search')[0]) notes.push(`${filter}: ${matching} vectors, ranked by an exact scan (recall 1)`);
          continue;
        }
        const members = filter === 'none' ? null : new Set(rows);
        const latencies: number[] = [];
        let recall = 0;
        queries.forEach((query, q) => {
          const start = performance.now();
          const count = filter === 'none' ? unfilteredCandidates(DEPTH, size) : indexCandidates(DEPTH, size, matching);
          const found = graph.search(query, Math.max(count, 1), 1);
          let candidates = Array.from(found.keys, Number);
          if (members) candidates = candidates.filter((row) => members.has(row)).slice(0, RERANKED);
          const best = exactBest(query, candidates, DEPTH).slice(0, 10);
          latencies.push(performance.now() - start);
          const truth = exact.get(filter)![q]!;
          const tenth = truth[truth.length - 1]?.score ?? -1;
          // A row scoring at least the exact tenth counts (ties), as in the scale bench.
          recall += best.filter((hit) => hit.score >= tenth - 1e-6).length / Math.max(1, truth.length);
        });
        const summary = summarize(latencies, 0, latencies.reduce((sum, ms) => sum + ms, 0));
        measurements.push({
          ...summary, concurrency: 1, error_samples: [], group: `expansion_search ${expansion}`, name: filter === 'none' ? 'no filter' : filter,
          note: `recall@10 vs exact ${round(recall / queries.length, 3)} (${queries.length} questions)`,
        });
        context.log(`expansion_search ${expansion} ${filter}: recall@10 ${round(recall / queries.length, 3)}, p50 ${summary.p50_ms} ms`);
      }
    }
    rmSync(dir, { recursive: true, force: true });
    return {
      dataset: { corpus: context.string('corpus'), vectors: size, dimension, questions: queries.length },
      seeding: [{ method: 'usearch add, 2 threads, slices of 2,048', count: size, wall_ms: round(buildMs), rate_per_s: round(size / (buildMs / 1000)) }],
      measurements,
      notes,
    };
  },
};

function packRows(vectors: Float32Array, list: readonly number[], dimension: number): Float32Array {
  const matrix = new Float32Array(list.length * dimension);
  list.forEach((row, i) => matrix.set(vectors.subarray(row * dimension, (row + 1) * dimension), i * dimension));
  return matrix;
}
