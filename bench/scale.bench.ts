/**
 * Every figure of issue 16's goal table at one store size (`--messages`):
 * ingest through the real write path (HTTP from this process to the
 * controller in its own process, the bridge in a third), the pipeline behind
 * it, reads while it runs, ingest-to-searchable at a steady rate, semantic
 * search with recall@10 against exact search (no filter and folder filters of
 * 10%, 1% and 0.1%), hybrid, context, full text, RSS and restart time. Exact
 * baselines are measured on the same vectors in the same run: a float32 scan
 * in JS and sqlite-vec brute force. With `--data-dir`, a seeded store is reused.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import BetterSqlite3 from 'better-sqlite3';
import * as sqliteVec from 'sqlite-vec';
import { startBenchBridge, type BenchBridge } from './lib/bridge.js';
import { generateConversation } from './lib/corpus.js';
import { loadDialogueCorpus } from './lib/dialogue-corpus.js';
import { createHttpClient, type HttpClient } from './lib/http-client.js';
import { runLoad } from './lib/load.js';
import { timeMemsvcStart } from './lib/memsvc-start.js';
import type { Measurement, Scenario, ScenarioContext, SeedingStep } from './lib/scenario.js';
import { startBenchServer, type BenchServer, type CpuTime } from './lib/server.js';
import { tenancyRows } from './lib/tenancy-rows.js';
import { serverTask } from './lib/server-task.js';
import { round, summarize } from './lib/stats.js';
import { BENCH_QUERIES, recallQuestions } from './lib/search-queries.js';
import { importFiles } from '../src/cli/commands/import.command.js';
import { createMemsvcClient } from '../src/client/memsvc-client.js';

/** Folder filters by selectivity: conversation i lands in the deepest that divides it (subtree filters nest). */
const SELECTIVE_FOLDERS: ReadonlyArray<{ folder: string; every: number; share: string }> = [
  { folder: '/sel/a/b/c', every: 1000, share: '0.1%' },
  { folder: '/sel/a/b', every: 100, share: '1%' },
  { folder: '/sel/a', every: 10, share: '10%' },
];
/**
 * A folder that follows a topic, as users' folders do: the corpus's research conversations. The selective folders
 * above take conversations whatever they are about; under this one, a question about another topic has few of the
 * folder's messages near it, which is the hard case for a graph searched before the filter.
 */
const TOPICAL_FOLDER = '/research';
const MESSAGES_PER_CONVERSATION = 10;
/** The scale bench's service key (its stores' bridge and controller share it). */
export const API_KEY = 'bench-scale-key-0123456789abcdef0123456789';

export const serverMemory = serverTask(import.meta.url, 'serverMemory', async () => {
  const usage = process.memoryUsage();
  return { rss: usage.rss, heap_used: usage.heapUsed, external: usage.external };
});

export const scenario: Scenario = {
  name: 'scale',
  description: 'issue 16 goal table: ingest, pipeline, reads under ingest, search latency and recall vs exact, restart',
  options: {
    messages: { kind: 'number', description: 'store size in messages', default: 100_000, quick: 3_000 },
    'ingest-concurrency': { kind: 'number', description: 'writers (10-message conversations)', default: 8 },
    requests: { kind: 'number', description: 'measured requests per latency row', default: 300, quick: 40 },
    'recall-queries': { kind: 'number', description: 'distinct questions for recall@10 against exact (and the search rows)', default: 100, quick: 12 },
    'read-rate': { kind: 'number', description: 'GET /conversations/:id a second while the pipeline runs (paced, one at a time)', default: 200 },
    'steady-rate': { kind: 'number', description: 'msgs/s for ingest-to-searchable', default: 1000, quick: 300 },
    'steady-seconds': { kind: 'number', description: 'duration of the steady-rate phase', default: 20, quick: 5 },
    'import-messages': { kind: 'number', description: 'messages in the bulk JSONL import (added to the store each run)', default: 50_000, quick: 2_000 },
    corpus: { kind: 'string', description: 'generator (the bench\'s topics) or dialogue (LoCoMo dev turns recombined, read from ../shared; its questions)', default: 'generator' },
  },
  async run(context) {
    text = corpusOf(context.string('corpus'));
    const root = context.dataDir ?? mkdtempSync(join(tmpdir(), 'memsvc-bench-scale-'));
    mkdirSync(root, { recursive: true });
    const measurements: Measurement[] = [];
    const seeding: SeedingStep[] = [];
    const notes: string[] = [];
    const bridge = await startBenchBridge(join(root, 'bridge'), API_KEY);
    let server = await startServer(context, root, bridge);
    let client = createHttpClient(server.baseUrl, server.apiKey, 32);
    try {
      const target = context.number('messages');
      const existing = await stats(client);
      if (existing.total_messages < target) {
        context.log(`ingesting ${target - existing.total_messages} messages over HTTP (store has ${existing.total_messages})`);
        measurements.push(...await ingest(context, server, client, existing.total_conversations, target, seeding));
      } else {
        notes.push(`reused a store of ${existing.total_messages} messages: ingest rows not measured in this run`);
      }
      context.log('waiting until every message is in the graph');
      await waitInGraph(client, 6 * 3600_000);

      measurements.push(await steadyIngestToSearchable(context, client));
      await waitInGraph(client, 3600_000);

      const corpus = loadCorpus(join(server.dataDir, 'memsvc.db'));
      context.log(`${corpus.keys.length} vectors loaded for exact baselines`);
      const queries = await queryVectors(bridge, context.number('recall-queries'));
      measurements.push(...exactBaselines(corpus, queries, join(server.dataDir, 'memsvc.db')));
      measurements.push(...await semanticRows(context, client, corpus, queries));
      measurements.push(...await textRows(context, client, corpus));
      measurements.push(...await tenancyRows({ baseUrl: server.baseUrl, admin: client, folder: SELECTIVE_FOLDERS.find((bucket) => bucket.share === '1%')!.folder, share: '1%',
        questions: queries.map((query) => query.text), requests: context.number('requests') }));

      measurements.push(...await bulkImport(context, server, client, root));

      const memory = await server.exec(serverMemory, {});
      measurements.push(valueRow('memory', 'controller RSS', memory.rss / 2 ** 20, 'MiB',
        `heap ${round(memory.heap_used / 2 ** 20, 0)} MiB, external ${round(memory.external / 2 ** 20, 0)} MiB`));

      client.close();
      await server.close();
      context.log('restarting on the existing store');
      const started = performance.now();
      server = await startServer(context, root, bridge);
      client = createHttpClient(server.baseUrl, server.apiKey, 32);
      await until(async () => (await client.request('GET', '/health')).status === 200, 120_000);
      const healthyMs = performance.now() - started;
      await until(async () => status(client).then((s) => s.index_catch_up.state === 'ready'), 3600_000);
      const caughtUpMs = performance.now() - started;
      measurements.push(valueRow('restart', 'start-up on the existing store to healthy', healthyMs, 'ms',
        `index loaded and caught up after ${round(caughtUpMs, 0)} ms (process start included)`));
      const dataset = await stats(client);
      client.close();
      await server.close();
      measurements.push(await memsvcStartRow(context, join(root, 'store')));
      return {
        dataset: { messages: dataset.total_messages, conversations: dataset.total_conversations, vectors: corpus.keys.length },
        seeding, measurements,
        notes: [...notes,
          'controller, bridge (builtin engine) and this client are three processes on the same machine',
          `bulk import: ${context.number('import-messages')} messages imported into /bulk in every run (the store grows by that much)`],
      };
    } finally {
      client.close();
      await server.close();
      await bridge.close();
      if (!context.dataDir && !context.keepData) rmSync(root, { recursive: true, force: true });
    }
  },
};

/**
 * Start-up as users run it: `memsvc start` from dist/ (built first if stale, as `npm start` does), with the bridge it
 * supervises, on the same store. The restart row above times the controller alone, under tsx, its bridge running.
 */
async function memsvcStartRow(context: ScenarioContext, store: string): Promise<Measurement> {
  const repo = fileURLToPath(new URL('..', import.meta.url));
  const build = spawnSync(process.execPath, [join(repo, 'scripts', 'build-if-stale.mjs')], { cwd: repo, stdio: 'inherit' });
  if (build.status !== 0) throw new Error(`building dist/ failed (${build.status})`);
  context.log('starting memsvc start (dist/) on the existing store');
  const start = await timeMemsvcStart(join(repo, 'dist'), store);
  return valueRow('restart', 'start-up as `memsvc start` (dist/, its own bridge) to healthy', start.healthyMs, 'ms',
    `controller listening after ${start.controllerListeningMs ?? '?'} ms, bridge after ${start.bridgeListeningMs ?? '?'} ms`);
}

function startServer(context: ScenarioContext, root: string, bridge: BenchBridge): Promise<BenchServer> {
  return startBenchServer({
    mode: context.serverMode, keepData: true, dataDir: join(root, 'store'), bridgeUrl: bridge.url, apiKey: API_KEY,
  });
}

interface Stats { total_messages: number; total_conversations: number }
interface Status {
  pending: number; done: number; indexed: number; searchable: boolean; index_catch_up: { state: string };
  /** Absent before vectors waited for the graph (older builds inserted before answering). */
  graph_backlog?: number;
}

/** Every message embedded and in the HNSW graph (searchable comes first: waiting vectors are scanned exactly). */
const inGraph = (s: Status) => s.searchable && (s.graph_backlog ?? 0) === 0;

async function stats(client: HttpClient): Promise<Stats> {
  return JSON.parse((await client.request('GET', '/stats')).body) as Stats;
}

async function status(client: HttpClient): Promise<Status> {
  return JSON.parse((await client.request('GET', '/api/v1/embeddings/status')).body) as Status;
}

async function until(probe: () => Promise<boolean>, timeoutMs: number, everyMs = 200): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (await probe().catch(() => false)) return;
    if (Date.now() > deadline) throw new Error(`condition not met within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, everyMs));
  }
}

const waitInGraph = (client: HttpClient, timeoutMs: number) =>
  until(async () => inGraph(await status(client)), timeoutMs, 500);

/** Where the stored text and the questions come from (--corpus). */
interface BenchText {
  name: string;
  conversation(index: number): { label: string; folder: string; messages: unknown[]; importance_score?: number };
  /** Questions for recall and the semantic rows. */
  questions(count: number): string[];
  /** Queries of the hybrid, context and full-text rows. */
  queries: readonly string[];
  /** The corpus has a folder that follows a topic (TOPICAL_FOLDER). */
  topical: boolean;
}

let text: BenchText;

function corpusOf(name: string): BenchText {
  if (name === 'generator') {
    return {
      name, topical: true, queries: BENCH_QUERIES, questions: recallQuestions,
      conversation: (index) => generateConversation(index, { seed: 42, messagesPerConversation: MESSAGES_PER_CONVERSATION }),
    };
  }
  if (name !== 'dialogue') throw new Error(`--corpus is generator or dialogue, not ${name}`);
  const dialogue = loadDialogueCorpus({ messagesPerConversation: MESSAGES_PER_CONVERSATION });
  return {
    name, topical: false, queries: dialogue.questions.slice(0, 50),
    questions: (count) => dialogue.questions.slice(0, count),
    conversation: (index) => dialogue.conversation(index),
  };
}

function conversationBody(index: number): string {
  const generated = text.conversation(index);
  // The same selective folders for either corpus: conversation i in the deepest that divides it.
  const folder = SELECTIVE_FOLDERS.find((bucket) => index % bucket.every === 0)?.folder ?? generated.folder;
  return JSON.stringify({
    label: generated.label, folder, messages: generated.messages,
    ...(generated.importance_score !== undefined ? { importance_score: generated.importance_score } : {}),
  });
}

/** Writers at fixed concurrency up to the target; reads of created conversations alongside; pipeline progress polled. */
async function ingest(context: ScenarioContext, server: BenchServer, client: HttpClient, firstIndex: number,
  target: number, seeding: SeedingStep[]): Promise<Measurement[]> {
  const conversations = Math.ceil((target - firstIndex * MESSAGES_PER_CONVERSATION) / MESSAGES_PER_CONVERSATION);
  const ids: string[] = [];
  let writing = true;
  const started = performance.now();
  const cpuBefore = await server.cpuTime();
  const reads: number[] = [];
  let readErrors = 0;
  // Reads while the pipeline runs flat out, until every message is in the graph: paced at read-rate, one at a time,
  // so that they probe the pipeline's effect on a reader rather than compete with it (a reader that sends the next
  // GET as soon as one answers took 500-2,000 reads/s of the controller's event loop from the pipeline).
  const readRate = context.number('read-rate');
  if (!(readRate > 0)) throw new Error(`--read-rate must be a positive number of reads a second, not ${readRate}`);
  const readEveryMs = 1000 / readRate;
  let searchableAt = 0;
  const reader = (async () => {
    let nextRead = performance.now();
    let nextStatus = 0;
    for (;;) {
      const wait = nextRead - performance.now();
      if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
      nextRead = Math.max(nextRead + readEveryMs, performance.now() - 1000);
      if (ids.length === 0) continue;
      const id = ids[Math.floor(Math.random() * ids.length)]!;
      const t0 = performance.now();
      const response = await client.request('GET', `/api/v1/conversations/${id}`);
      if (response.status === 200) reads.push(performance.now() - t0); else readErrors += 1;
      if (!writing && performance.now() >= nextStatus) {
        nextStatus = performance.now() + 250;
        const now = await status(client);
        if (now.searchable && searchableAt === 0) searchableAt = performance.now();
        if (inGraph(now)) return;
      }
    }
  })();
  let lastLog = performance.now();
  const write = await runLoad({
    client, concurrency: context.number('ingest-concurrency'), maxRequests: conversations, maxDurationMs: 6 * 3600_000,
    expectStatus: 201,
    request: (i) => ({ method: 'POST', path: '/api/v1/conversations', body: conversationBody(firstIndex + i) }),
    onResponse: (_i, response) => {
      ids.push((JSON.parse(response.body) as { id: string }).id);
      if (performance.now() - lastLog > 10_000) {
        lastLog = performance.now();
        context.log(`  ${ids.length * MESSAGES_PER_CONVERSATION} messages acknowledged`);
      }
    },
  });
  writing = false;
  const ackedWallMs = performance.now() - started;
  const acked = write.count * MESSAGES_PER_CONVERSATION;
  await reader;
  const pipelineWallMs = performance.now() - started;
  const cpuAfter = await server.cpuTime();
  const cpuPct = ((cpuAfter.user_ms + cpuAfter.system_ms - cpuBefore.user_ms - cpuBefore.system_ms) / pipelineWallMs) * 100;
  seeding.push({
    method: `POST /api/v1/conversations over HTTP, 10 messages each, concurrency ${context.number('ingest-concurrency')}`,
    count: acked, wall_ms: round(ackedWallMs, 0), rate_per_s: round((acked / ackedWallMs) * 1000, 1),
    note: 'acknowledged (stored); embedding and indexing continue behind',
  });
  return [
    { group: 'ingest', name: 'acknowledged ingest (POST 10-message conversations)', ...write,
      note: `${round((acked / ackedWallMs) * 1000, 0)} msgs/s acknowledged` },
    valueRow('ingest', 'pipeline: stored -> embedded -> indexed, sustained', (acked / pipelineWallMs) * 1000, 'msgs/s',
      `${acked} messages in the graph ${round(pipelineWallMs / 1000, 1)} s after the first write (all searchable after ` +
      `${round((searchableAt - started) / 1000, 1)} s); controller CPU ${round(cpuPct, 0)}% of one core`),
    { group: 'ingest', name: 'GET /conversations/:id while the pipeline runs', concurrency: 1,
      ...summarize(reads, readErrors, pipelineWallMs), error_samples: [],
      note: `paced at ${context.number('read-rate')} reads/s, one at a time, until every message was in the graph` },
  ];
}

/** Writes at a steady rate; a probe every 250 ms is timed from POST to the first semantic hit. */
export async function steadyIngestToSearchable(context: ScenarioContext, client: HttpClient): Promise<Measurement> {
  const rate = context.number('steady-rate');
  const seconds = context.number('steady-seconds');
  const perSecond = rate / MESSAGES_PER_CONVERSATION;
  const stopAt = performance.now() + seconds * 1000;
  let index = 10_000_000;
  // A refused write (a 503 from admission control, say) is an error of this row, not a probe that never appears.
  const refused: string[] = [];
  const refusal = (what: string, answer: { status: number; body: string }) => {
    refused.push(`${what}: ${answer.status} ${answer.body.slice(0, 200)}`);
    context.log(`  ${what} refused: ${answer.status} ${answer.body.slice(0, 200)}`);
  };
  const writer = (async () => {
    const started = performance.now();
    let sent = 0;
    const inFlight: Array<Promise<unknown>> = [];
    while (performance.now() < stopAt) {
      const due = ((performance.now() - started) / 1000) * perSecond;
      while (sent < due) {
        inFlight.push(client.request('POST', '/api/v1/conversations', conversationBody(index)).then((answer) => {
          if (answer.status !== 201) refusal('a steady write', answer);
        }));
        index += 1;
        sent += 1;
      }
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    await Promise.all(inFlight);
  })();
  const latencies: number[] = [];
  let probe = 0;
  // Probes of an earlier run on a reused store say the same words: each run's say a word of their own too.
  const run = Date.now().toString(36);
  while (performance.now() < stopAt) {
    const marker = `quokka${probe}zz lighthouse ${probe} semaphore rhubarb ${run}`;
    probe += 1;
    const t0 = performance.now();
    const created = await client.request('POST', '/api/v1/conversations', JSON.stringify({
      label: 'probe', folder: '/bench/probe', messages: [{ role: 'user', content: marker }],
    }));
    if (created.status !== 201) {
      refusal(`probe ${probe - 1}`, created);
      await new Promise((resolve) => setTimeout(resolve, 250));
      continue;
    }
    const id = (JSON.parse(created.body) as { id: string }).id;
    const body = JSON.stringify({ query: marker, mode: 'semantic', limit: 5 });
    for (;;) {
      const found = JSON.parse((await client.request('POST', '/api/v1/query', body)).body) as
        { results?: Array<{ conversation_id: string }> };
      if (found.results?.some((hit) => hit.conversation_id === id)) break;
      if (performance.now() - t0 > 60_000) break;
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    latencies.push(performance.now() - t0);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  await writer;
  return {
    group: 'ingest', name: `ingest -> searchable at a steady ${rate} msgs/s (POST -> semantic hit)`, concurrency: 1,
    ...summarize(latencies, refused.length, seconds * 1000), error_samples: refused.slice(0, 5),
  };
}

interface Corpus {
  keys: Int32Array;
  ids: string[];
  folders: string[];
  /** Row i is the vector of keys[i]. */
  matrix: Float32Array;
  dimension: number;
  idToRow: Map<string, number>;
  sample: string[];
}

function loadCorpus(file: string): Corpus {
  const db = new BetterSqlite3(file, { readonly: true });
  try {
    const count = db.prepare('SELECT count(*) FROM message_vectors').pluck().get() as number;
    const rows = db.prepare(`SELECT v.message_seq AS key, m.id, c.folder, v.vector FROM message_vectors v
      JOIN messages m ON m.seq = v.message_seq JOIN conversations c ON c.id = m.conversation_id`).iterate() as
      IterableIterator<{ key: number; id: string; folder: string; vector: Buffer }>;
    let dimension = 0;
    let matrix = new Float32Array(0);
    const keys = new Int32Array(count);
    const ids: string[] = [];
    const folders: string[] = [];
    let i = 0;
    for (const row of rows) {
      if (dimension === 0) {
        dimension = row.vector.byteLength / 4;
        matrix = new Float32Array(count * dimension);
      }
      new Uint8Array(matrix.buffer, i * dimension * 4, dimension * 4).set(row.vector);
      keys[i] = row.key;
      ids.push(row.id);
      folders.push(row.folder);
      i += 1;
    }
    const sample = db.prepare('SELECT content FROM messages ORDER BY seq LIMIT 2000').pluck().all() as string[];
    return { keys: keys.subarray(0, i), ids, folders, matrix, dimension, idToRow: new Map(ids.map((id, row) => [id, row])), sample };
  } finally {
    db.close();
  }
}

interface Query { text: string; vector: Float32Array }

async function queryVectors(bridge: BenchBridge, count: number): Promise<Query[]> {
  const texts = text.questions(count);
  const vectors = await bridge.embed(texts);
  return texts.map((text, i) => ({ text, vector: vectors[i]! }));
}

const inFolder = (folder: string, filter: string | null) =>
  filter === null || folder === filter || folder.startsWith(`${filter}/`);

/** Exact top-10 rows by dot product (vectors are unit length) among rows passing the folder filter, best first. */
function exactTop(corpus: Corpus, query: Float32Array, filter: string | null, k = 10): Array<{ row: number; score: number }> {
  const best: Array<{ row: number; score: number }> = [];
  for (let row = 0; row < corpus.keys.length; row += 1) {
    if (filter !== null && !inFolder(corpus.folders[row]!, filter)) continue;
    const score = dot(corpus, row, query);
    if (best.length < k || score > best[best.length - 1]!.score) {
      best.push({ row, score });
      best.sort((a, b) => b.score - a.score);
      if (best.length > k) best.pop();
    }
  }
  return best;
}

function dot(corpus: Corpus, row: number, query: Float32Array): number {
  const { matrix, dimension } = corpus;
  let sum = 0;
  const base = row * dimension;
  for (let j = 0; j < dimension; j += 1) sum += matrix[base + j]! * query[j]!;
  return sum;
}

/**
 * Recall@10 of one answer against the exact top 10, two ways. `strict`: the share of the exact scan's own
 * ten that the answer holds. `ties`: the share of the answer that is as close to the query as the exact
 * 10th (to float rounding), as ann-benchmarks counts: the generated corpus repeats its small vocabulary, so
 * at 1M many messages embed to the same vector, and which ten of equals the scan keeps is arbitrary.
 */
function recallOf(corpus: Corpus, query: Float32Array, exact: Array<{ row: number; score: number }>, found: string[]):
  { strict: number; ties: number } {
  if (exact.length === 0) return { strict: 1, ties: 1 };
  const ids = new Set(exact.map((item) => corpus.ids[item.row]!));
  const tenth = exact[exact.length - 1]!.score - 1e-6;
  const top = found.slice(0, exact.length);
  const strict = top.filter((id) => ids.has(id)).length / exact.length;
  const ties = top.filter((id) => {
    const row = corpus.idToRow.get(id);
    return row !== undefined && dot(corpus, row, query) >= tenth;
  }).length / exact.length;
  return { strict, ties };
}

function exactBaselines(corpus: Corpus, queries: Query[], file: string): Measurement[] {
  const scan: number[] = [];
  for (const query of queries.slice(0, 20)) {
    const t0 = performance.now();
    exactTop(corpus, query.vector, null);
    scan.push(performance.now() - t0);
  }
  const db = new BetterSqlite3(file, { readonly: true });
  const brute: number[] = [];
  try {
    sqliteVec.load(db);
    const statement = db.prepare(`SELECT message_seq FROM message_vectors
      ORDER BY vec_distance_cosine(vector, ?) LIMIT 10`);
    for (const query of queries.slice(0, 10)) {
      const t0 = performance.now();
      statement.all(Buffer.from(query.vector.buffer, query.vector.byteOffset, query.vector.byteLength));
      brute.push(performance.now() - t0);
    }
  } finally {
    db.close();
  }
  return [
    { group: 'exact baseline', name: `float32 scan in JS, no filter (${corpus.keys.length} vectors, in the bench process)`,
      concurrency: 1, ...summarize(scan, 0, scan.reduce((a, b) => a + b, 0)), error_samples: [] },
    { group: 'exact baseline', name: 'sqlite-vec brute force (vec_distance_cosine, ORDER BY LIMIT 10)', concurrency: 1,
      ...summarize(brute, 0, brute.reduce((a, b) => a + b, 0)), error_samples: [] },
  ];
}

async function semanticRows(context: ScenarioContext, client: HttpClient, corpus: Corpus, queries: Query[]):
  Promise<Measurement[]> {
  const rows: Measurement[] = [];
  const filters: Array<{ folder: string | null; share: string }> = [
    { folder: null, share: 'no filter' },
    ...[...SELECTIVE_FOLDERS].reverse().map((bucket) => ({ folder: bucket.folder, share: `folder filter ${bucket.share}` })),
    ...(text.topical ? [{ folder: TOPICAL_FOLDER, share: `topical folder filter (${TOPICAL_FOLDER})` }] : []),
  ];
  for (const { folder, share } of filters) {
    const body = (text: string) => JSON.stringify({
      query: text, mode: 'semantic', limit: 10, ...(folder ? { filters: { folder } } : {}),
    });
    const bodies = queries.map((query) => body(query.text));
    const latency = await runLoad({
      client, concurrency: 1, maxRequests: context.number('requests'), maxDurationMs: 120_000, warmupRequests: 10,
      expectStatus: 200, request: (i) => ({ method: 'POST', path: '/api/v1/query', body: bodies[i % bodies.length]! }),
    });
    let recall = 0;
    let recallTies = 0;
    let exactMs = 0;
    for (const query of queries) {
      const answer = await client.request('POST', '/api/v1/query', body(query.text));
      if (answer.status !== 200) throw new Error(`recall question ${JSON.stringify(query.text)} (${share}): ${answer.status} ${answer.body.slice(0, 500)}`);
      const response = JSON.parse(answer.body) as { results: Array<{ message_id: string }> };
      const t0 = performance.now();
      const exact = exactTop(corpus, query.vector, folder);
      exactMs += performance.now() - t0;
      const { strict, ties } = recallOf(corpus, query.vector, exact, response.results.map((hit) => hit.message_id));
      recall += strict;
      recallTies += ties;
    }
    const matching = folder === null ? corpus.keys.length : corpus.folders.filter((f) => inFolder(f, folder)).length;
    rows.push({
      group: 'semantic', name: `POST /query semantic, ${share} (${matching} vectors)`, ...latency,
      note: `recall@10 vs exact = ${round(recall / queries.length, 3)} (counting ties with the exact 10th: ` +
        `${round(recallTies / queries.length, 3)}) over ${queries.length} queries; ` +
        `exact JS scan of the same candidates ${round(exactMs / queries.length, 1)} ms a query`,
    });
  }
  return rows;
}

async function textRows(context: ScenarioContext, client: HttpClient, corpus: Corpus): Promise<Measurement[]> {
  const counts = new Map<string, number>();
  for (const text of corpus.sample) {
    for (const word of new Set(text.toLowerCase().match(/[a-z]{3,}/g) ?? [])) counts.set(word, (counts.get(word) ?? 0) + 1);
  }
  const common = [...counts.entries()].sort((a, b) => b[1] - a[1]).map(([word]) => word);
  const queries = text.queries;
  const words = queries.map((q) => q.split(' ').slice(0, 2).join(' '));
  const variants: Array<[string, string, string[]]> = [
    ['hybrid', 'POST /query hybrid (default mode)', queries.map((q) => JSON.stringify({ query: q, limit: 10 }))],
    ['context', 'POST /context/assemble', queries.map((q) => JSON.stringify({ query: q }))],
    ['full text', 'POST /search/fts, 1-3 words', queries.map((q, i) => JSON.stringify({ query: q.split(' ').slice(0, 1 + (i % 3)).join(' ') }))],
    ['full text', 'POST /search/fts, phrase', words.map((w) => JSON.stringify({ query: `"${w}"` }))],
    ['full text', `POST /search/fts, the commonest word ("${common[0]}")`, [JSON.stringify({ query: common[0] })]],
    ['full text', 'POST /search/fts, prefix', common.slice(0, 10).map((w) => JSON.stringify({ query: `${w.slice(0, 3)}*` }))],
  ];
  const rows: Measurement[] = [];
  for (const [group, name, bodies] of variants) {
    const path = group === 'context' ? '/api/v1/context/assemble' : group === 'full text' ? '/api/v1/search/fts' : '/api/v1/query';
    const result = await runLoad({
      client, concurrency: 1, maxRequests: context.number('requests'), maxDurationMs: 120_000, warmupRequests: 10,
      expectStatus: 200, request: (i) => ({ method: 'POST', path, body: bodies[i % bodies.length]! }),
    });
    rows.push({ group, name, ...result });
  }
  return rows;
}

/**
 * Bulk import through the real path: a JSONL export file of 10-message conversations, streamed by the CLI's
 * importFiles (`memsvc import`, batches of 200 records) to POST /api/v1/import. Stored = every batch answered;
 * then the pipeline embeds and indexes the imported messages behind it.
 */
async function bulkImport(context: ScenarioContext, server: BenchServer, client: HttpClient, root: string): Promise<Measurement[]> {
  const messages = context.number('import-messages');
  const file = join(root, 'bulk-import.jsonl');
  const lines: string[] = [];
  const base = Date.parse('2025-01-01T00:00:00.000Z');
  for (let i = 0; i * MESSAGES_PER_CONVERSATION < messages; i += 1) {
    const generated = generateConversation(20_000_000 + i, { seed: 42, messagesPerConversation: MESSAGES_PER_CONVERSATION });
    const at = (minute: number) => new Date(base + (i * MESSAGES_PER_CONVERSATION + minute) * 60_000).toISOString();
    // No ids: import gives new ones, so a reused store takes the file again.
    lines.push(JSON.stringify({
      label: generated.label, folder: '/bulk', importance_score: generated.importance_score, created_at: at(0),
      messages: generated.messages.map((message, m) => ({ ...message, timestamp: at(m) })),
    }));
  }
  writeFileSync(file, `${lines.join('\n')}\n`);
  const api = createMemsvcClient({ baseUrl: server.baseUrl, apiKey: server.apiKey });
  context.log(`importing ${messages} messages from a JSONL file`);
  const cpuBefore = await server.cpuTime();
  const started = performance.now();
  const totals = await importFiles(api, [file], { onConflict: 'skip', batchSize: 200 });
  const storedMs = performance.now() - started;
  const cpuStored = await server.cpuTime();
  await waitInGraph(client, 3600_000);
  const searchableMs = performance.now() - started;
  const cpuAfter = await server.cpuTime();
  rmSync(file, { force: true });
  const cpu = (a: CpuTime, b: CpuTime) => b.user_ms + b.system_ms - a.user_ms - a.system_ms;
  return [
    valueRow('import', 'bulk import of a JSONL file (memsvc import, 200 records a request), stored', (totals.messages / storedMs) * 1000, 'msgs/s',
      `${totals.messages} messages in ${round(storedMs / 1000, 1)} s; controller CPU ${round(cpu(cpuBefore, cpuStored), 0)} ms`),
    valueRow('import', 'bulk import: all imported messages embedded and indexed', (totals.messages / searchableMs) * 1000, 'msgs/s',
      `in the graph ${round(searchableMs / 1000, 1)} s after the import started; controller CPU ${round(cpu(cpuBefore, cpuAfter), 0)} ms in all`),
  ];
}

/** A single figure (not a latency distribution) in the table's p50 column, with its unit in the note. */
function valueRow(group: string, name: string, value: number, unit: string, note: string): Measurement {
  const v = round(value, 1);
  return {
    group, name, concurrency: 1, count: 1, errors: 0, wall_ms: 0, throughput_per_s: 0,
    mean_ms: v, min_ms: v, p50_ms: v, p95_ms: v, p99_ms: v, max_ms: v, error_samples: [],
    note: `${v} ${unit}; ${note}`,
  };
}
