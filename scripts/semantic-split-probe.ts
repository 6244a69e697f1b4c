/**
 * Where a semantic search's time goes on an existing store (issue 16), in process: each layer's wall time, from the
 * outside in. SearchService.query (all), semanticRanking (embedding the question, then the vector search),
 * SqliteVectorSearch.nearest (the index, reading the candidates' stored vectors, the exact re-rank) and
 * ThreadedVectorIndex.search (the index thread's round trip: its graph searches and the hand-over). Waits until the
 * start-up catch-up has ended (answers no longer partial) and --settle seconds more (the end of a catch-up saves every
 * changed graph, which holds searches a graph at a time), then times --rounds passes over the bench's questions
 * after two unmeasured ones.
 *
 * --questions recall asks the scale bench's 100 recall questions (what its semantic rows time) rather than its 15.
 *
 * With --folder, every question is asked under that folder filter (the scale bench's /sel/a is 10% of the messages,
 * /sel/a/b 1%), and counting the filter's matches is timed too.
 *
 *   npx tsx scripts/semantic-split-probe.ts --data-dir <dir>/scale/store [--rounds 10] [--settle 20] [--folder /sel/a]
 *     [--questions recall] [--warm 0]
 *     [--search-<key> <number>]
 */
import { BENCH_QUERIES, recallQuestions } from '../bench/lib/search-queries.js';
import { percentile } from '../bench/lib/stats.js';
import { EmbeddedMatchCounter } from '../src/adapters/sqlite/sqlite-vector-count.js';
import { SqliteVectorSearch } from '../src/adapters/sqlite/sqlite-vector-search.js';
import { ThreadedVectorIndex } from '../src/adapters/vector/threaded-vector-index.js';
import { SearchService } from '../src/features/search/search.service.js';
import { startService } from '../test/helpers/service-harness.js';
import { option } from './lib/probe-options.js';
import { waitForGraph } from './lib/wait-for-graph.js';

const times = new Map<string, number[]>();
let measuring = false;

/**
 * Times every call of `prototype[name]` under `label` while measuring: until its promise settles for an async method,
 * until it returns for a synchronous one (which stays synchronous).
 */
function timeMethod(prototype: object, name: string, label: string): void {
  const target = prototype as Record<string, (...args: unknown[]) => unknown>;
  const original = target[name]!;
  const record = (started: number) => {
    if (measuring) times.set(label, [...(times.get(label) ?? []), performance.now() - started]);
  };
  target[name] = function timed(this: unknown, ...args: unknown[]) {
    const started = performance.now();
    const result = original.apply(this, args);
    if (result instanceof Promise) return result.finally(() => record(started));
    record(started);
    return result;
  };
}
timeMethod(SearchService.prototype, 'query', 'query (all)');
timeMethod(SearchService.prototype, 'semanticRanking', 'semanticRanking (embed + nearest)');
timeMethod(SqliteVectorSearch.prototype, 'nearest', 'nearest (index + stored vectors + re-rank)');
timeMethod(ThreadedVectorIndex.prototype, 'search', 'index thread round trip');
timeMethod(EmbeddedMatchCounter.prototype, 'admitted', 'counting the filter\'s matches');

// --search-<key> <value>: a search setting for this run (e.g. --search-index_partition_expansion 64), to compare settings alternately.
const searchSettings = Object.fromEntries(process.argv.slice(2).flatMap((arg, i, args) =>
  arg.startsWith('--search-') ? [[arg.slice('--search-'.length), Number(args[i + 1])]] : []));
const stack = await startService({
  bridge: 'builtin', logger: { level: 'warn' }, dataDir: option('data-dir', ''),
  overrides: { rate_limit: { enabled: false }, search: searchSettings },
});
const { search } = stack.controller;
const folder = option('folder', '');
const filters = folder === '' ? undefined : { folder };
const questions = option('questions', 'bench') === 'recall' ? recallQuestions(100) : BENCH_QUERIES;
const ask = (query: string) => search.query({ query, limit: 10, offset: 0, mode: 'semantic', filters });
try {
  await waitForGraph(search, questions[0]!, { caughtUp: true });
  await new Promise((resolve) => setTimeout(resolve, Number(option('settle', '20')) * 1000));
  const rounds = Number(option('rounds', '10'));
  const warm = Number(option('warm', '2'));
  for (let round = 0; round < rounds + warm; round += 1) {
    measuring = round >= warm;
    for (const query of questions) await ask(query);
  }
  for (const [label, list] of times) {
    const sorted = [...list].sort((a, b) => a - b);
    console.log(`${label.padEnd(44)} n=${sorted.length} p50 ${percentile(sorted, 50).toFixed(2)} p95 ${percentile(sorted, 95).toFixed(2)} ms`);
  }
} finally {
  await stack.stop();
}
