/**
 * In-process cost probe for issue 16: CPU time per operation, which a loaded shared machine distorts far
 * less than wall-clock latency.
 *
 *   npx tsx scripts/perf-probe.ts --data-dir /tmp/memsvc-probe --messages 30000 [--phase seed|query|all] [--rounds 3]
 *     [--overrides '{"search":{"author_weight":0}}']   (config on top of the probe's, e.g. ranking components off)
 *
 * seed: creates the bench corpus's 10-message conversations through ConversationService (the real write path,
 * in process) until the store holds --messages, then waits until every message is embedded and indexed; prints
 * stored and pipeline rates with the process's CPU time. query: context assembly (both rankings), hybrid search,
 * and full text (1-3 words, the commonest word, a prefix) over the bench questions, each timed by wall clock and
 * by CPU time per request. Run with `node --cpu-prof --import tsx` to see where the time goes.
 */
import { mkdirSync } from 'node:fs';
import { loadavg } from 'node:os';
import { generateConversation } from '../bench/lib/corpus.js';
import { BENCH_QUERIES } from '../bench/lib/search-queries.js';
import { startService, type RunningService } from '../test/helpers/service-harness.js';
import { option } from './lib/probe-options.js';
import { waitForGraph } from './lib/wait-for-graph.js';

const cpuMs = (since: NodeJS.CpuUsage) => { const u = process.cpuUsage(since); return (u.user + u.system) / 1000; };
const load = () => loadavg().map((v) => v.toFixed(1)).join(' ');
const pct = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))]!;

async function seed(stack: RunningService, target: number): Promise<void> {
  const stats = (await stack.api('GET', '/stats')).body as { total_messages: number; total_conversations: number };
  let messages = stats.total_messages;
  let index = stats.total_conversations;
  if (messages >= target) { console.log(`store has ${messages} messages: seeding skipped`); return; }
  const startedWall = performance.now();
  const startedCpu = process.cpuUsage();
  const before = messages;
  while (messages < target) {
    const generated = generateConversation(index, { seed: 42, messagesPerConversation: 10 });
    await stack.controller.conversations.create({
      label: generated.label, folder: generated.folder, messages: generated.messages, importanceScore: generated.importance_score,
    });
    index += 1;
    messages += generated.messages.length;
  }
  const storedWall = performance.now() - startedWall;
  console.log(`stored ${messages - before} in ${storedWall.toFixed(0)} ms wall (${((messages - before) / storedWall * 1000).toFixed(0)} msgs/s), ` +
    `cpu ${cpuMs(startedCpu).toFixed(0)} ms, load ${load()}`);
  await stack.waitForEmbeddings();
  const wall = performance.now() - startedWall;
  console.log(`pipeline: ${messages - before} searchable after ${wall.toFixed(0)} ms wall (${((messages - before) / wall * 1000).toFixed(0)} msgs/s), ` +
    `process cpu ${cpuMs(startedCpu).toFixed(0)} ms, load ${load()}`);
}

async function timed(name: string, rounds: number, bodies: Array<() => Promise<unknown>>): Promise<void> {
  for (const body of bodies.slice(0, 3)) await body();
  const walls: number[] = [];
  const cpus: number[] = [];
  for (let r = 0; r < rounds; r += 1) {
    for (const body of bodies) {
      const c0 = process.cpuUsage();
      const t0 = performance.now();
      await body();
      walls.push(performance.now() - t0);
      cpus.push(cpuMs(c0));
    }
  }
  walls.sort((a, b) => a - b);
  cpus.sort((a, b) => a - b);
  console.log(`${name.padEnd(34)} n=${walls.length} wall p50 ${pct(walls, 0.5).toFixed(1)} p95 ${pct(walls, 0.95).toFixed(1)} ms · ` +
    `cpu p50 ${pct(cpus, 0.5).toFixed(1)} p95 ${pct(cpus, 0.95).toFixed(1)} ms · load ${load()}`);
}

async function query(stack: RunningService, rounds: number, only: string | undefined): Promise<void> {
  const { context, search } = stack.controller;
  await waitForGraph(search, BENCH_QUERIES[0]!);
  const rows: Array<[string, Array<() => Promise<unknown>>]> = [
    ['context relevance', BENCH_QUERIES.map((q) => () => context.assemble({ query: q }))],
    ['context spec', BENCH_QUERIES.map((q) => () => context.assemble({ query: q, ranking: 'spec' }))],
    ['hybrid limit 10', BENCH_QUERIES.map((q) => () => search.query({ query: q, limit: 10, offset: 0 }))],
    ['semantic limit 10', BENCH_QUERIES.map((q) => () => search.query({ query: q, limit: 10, offset: 0, mode: 'semantic' }))],
    ['fts 1-3 words', BENCH_QUERIES.map((q, i) => () => search.fullText({ query: q.split(' ').slice(0, 1 + (i % 3)).join(' '), limit: 10, offset: 0 }))],
    ['fts commonest word ("the")', [() => search.fullText({ query: 'the', limit: 10, offset: 0 })]],
    ['fts prefix', ['the', 'and', 'thi', 'wit', 'con', 'que', 'ind', 'cac', 'tea', 'pla'].map((p) => () => search.fullText({ query: `${p}*`, limit: 10, offset: 0 }))],
  ];
  for (const [name, bodies] of rows) {
    if (only && !name.startsWith(only)) continue;
    await timed(name, name.startsWith('fts commonest') ? rounds * 15 : rounds, bodies);
  }
}

async function main(): Promise<void> {
  const dataDir = option('data-dir', '/tmp/memsvc-probe');
  const phase = option('phase', 'all');
  const batch = Number(option('batch', '0'));
  const extra = JSON.parse(option('overrides', '{}')) as Record<string, Record<string, unknown>>;
  mkdirSync(dataDir, { recursive: true });
  const stack = await startService({
    bridge: 'builtin', logger: { level: 'warn' }, dataDir,
    overrides: { rate_limit: { enabled: false }, ...(batch > 0 ? { embedding_worker: { batch_size: batch } } : {}), ...extra },
  });
  try {
    await stack.waitForEmbeddings();
    if (phase === 'seed' || phase === 'all') await seed(stack, Number(option('messages', '30000')));
    if (phase === 'query' || phase === 'all') await query(stack, Number(option('rounds', '3')), process.argv.includes('--only') ? option('only', '') : undefined);
  } finally {
    await stack.stop();
  }
}

await main();
