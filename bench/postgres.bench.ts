/**
 * The postgres driver against the SQLite default, in one run, on real dialogue text (bench/lib/dialogue-corpus.ts):
 * each driver's service in its own process, acknowledged ingest over HTTP (10-message conversations, concurrency 8)
 * with GETs during it, the pipeline to embedded and indexed (one driver at a time), then the data set's questions in
 * every mode, each question to both services in turn (so a slow phase of the machine falls on both), semantic
 * recall@10 against an exact scan in PostgreSQL (no filter and folders of 10% / 1% / 0.1%), and two replicas on one
 * database against one. `--url` names a real server with pgvector (a fresh database is made there and dropped after);
 * without it PGlite runs in this process, which checks the path but says nothing of speed.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createPool } from '../src/adapters/postgres/postgres-pool.js';
import { spawnService } from '../test/helpers/service-harness.js';
import { waitFor } from '../test/helpers/wait-for.js';
import { startPgliteServer } from '../scripts/lib/pglite-server.js';
import { freshDatabase } from '../scripts/lib/postgres-database.js';
import { freePort } from './lib/bridge.js';
import { loadDialogueCorpus, SELECTIVE_FOLDERS } from './lib/dialogue-corpus.js';
import { finishDriver, measureLatencies, RECALL_FILTERS, startDriver, stopDriver, type DriverRun, type StartedDriver } from './lib/driver-run.js';
import { createHttpClient, type HttpClient } from './lib/http-client.js';
import { runLoad } from './lib/load.js';
import type { Measurement, Scenario } from './lib/scenario.js';
import { round } from './lib/stats.js';

/** The comparison table's rows: figure key, what it is, and whether more is better. */
const FIGURES: ReadonlyArray<[string, string, 'throughput' | 'latency']> = [
  ['ack', 'acknowledged ingest (msgs/s)', 'throughput'],
  ['pipeline', 'pipeline stored -> embedded -> indexed (msgs/s)', 'throughput'],
  ['getP99', 'GET p99 during ingest (ms)', 'latency'],
  ['semantic p50', 'semantic p50 (ms)', 'latency'],
  ['semantic p95', 'semantic p95 (ms)', 'latency'],
  ['semantic, 10% folder p95', 'semantic, 10% folder p95 (ms)', 'latency'],
  ['hybrid p50', 'hybrid p50 (ms)', 'latency'],
  ['hybrid p95', 'hybrid p95 (ms)', 'latency'],
  ['hybrid, 10% folder p95', 'hybrid, 10% folder p95 (ms)', 'latency'],
  ['keyword p95', 'keyword (question) p95 (ms)', 'latency'],
  ['full text p50', 'full text p50 (ms)', 'latency'],
  ['full text p95', 'full text p95 (ms)', 'latency'],
  ['context p50', 'context assembly p50 (ms)', 'latency'],
  ['context p95', 'context assembly p95 (ms)', 'latency'],
  ['tenant hybrid p95', 'hybrid p95 with a tenant key granted a 1% folder (ms)', 'latency'],
  ['tenant semantic p95', 'semantic p95 with a tenant key granted a 1% folder (ms)', 'latency'],
];

export const scenario: Scenario = {
  name: 'postgres',
  description: 'postgres driver vs SQLite on real dialogue text: ingest, pipeline, search per mode, recall@10 vs exact, replicas',
  options: {
    messages: { kind: 'number', description: 'messages to store (10 per conversation)', default: 100_000, quick: 2_000 },
    requests: { kind: 'number', description: 'measured requests per latency row', default: 200, quick: 30 },
    'recall-questions': { kind: 'number', description: 'questions per recall row', default: 100, quick: 20 },
    url: { kind: 'string', description: 'a PostgreSQL server with pgvector (default: PGlite in process)', default: '' },
    drivers: { kind: 'string', description: 'which drivers run: sqlite,postgres', default: 'sqlite,postgres' },
    'vector-index': { kind: 'string', description: 'storage.vector_index (default: the driver default)', default: '' },
  },
  async run(context) {
    const corpus = loadDialogueCorpus();
    const drivers = context.string('drivers').split(',').map((name) => name.trim());
    const pglite = context.string('url') === '' && drivers.includes('postgres') ? await startPgliteServer() : null;
    const server = pglite?.url ?? context.string('url');
    const database = pglite || !drivers.includes('postgres') ? null : await freshDatabase(server, 'memsvc_bench');
    const url = database?.url ?? server;
    const common = { corpus, messages: context.number('messages'), requests: context.number('requests'),
      recallQuestions: context.number('recall-questions'), log: context.log };
    const runs = new Map<string, DriverRun>();
    const dirs: string[] = [];
    const tempDir = () => { const dir = mkdtempSync(join(tmpdir(), 'memsvc-bench-pg-')); dirs.push(dir); return dir; };
    const recall: Measurement[] = [];
    let exact: Map<string, string[][]> | null = null;
    const started: StartedDriver[] = [];
    try {
      // Loaded one at a time (an idle service costs the other nothing), then asked question by question in turn.
      if (drivers.includes('sqlite')) started.push(await startDriver({ ...common, name: 'sqlite', dataDir: tempDir(), env: {} }));
      if (drivers.includes('postgres')) {
        const index = context.string('vector-index');
        const env = { MEMSVC_STORAGE_DRIVER: 'postgres', MEMSVC_STORAGE_URL: url, MEMSVC_STORAGE_POOL_SIZE: '8',
          ...(index ? { MEMSVC_STORAGE_VECTOR_INDEX: index } : {}) };
        started.push(await startDriver({ ...common, name: 'postgres', dataDir: tempDir(), env,
          extra: async (_service, client, bridge) => {
            exact = await exactAnswers(url, bridge, corpus.questions.slice(0, common.recallQuestions));
            return replicaThroughput(client, env, tempDir(), corpus.questions, context.log);
          } }));
      }
      await measureLatencies(started, corpus, common.requests, context.log);
      while (started.length > 0) {
        const driver = started.shift()!;
        runs.set(driver.options.name, await finishDriver(driver));
      }
      if (exact) for (const [driver, run] of runs) recall.push(...recallRows(driver, run.semanticAnswers, exact));
      const table = comparisonTable(runs, recall);
      return {
        dataset: {
          messages: common.messages, conversations: Math.ceil(common.messages / 10), corpus: `real dialogue: ${corpus.turns} LoCoMo dev turns recombined in pairs`,
          questions: corpus.questions.length, server: pglite ? 'PGlite (PostgreSQL 18 + pgvector, WASM, 1 thread)' : url ? await serverVersion(url) : 'none (SQLite only)',
        },
        seeding: [],
        measurements: [...[...runs.values()].flatMap((run) => run.measurements), ...recall],
        notes: table,
      };
    } finally {
      for (const driver of started) await stopDriver(driver);
      if (database && !context.keepData) await database.stop().catch(() => {});
      else if (database) context.log(`kept database ${new URL(database.url).pathname.slice(1)}`);
      await pglite?.stop();
      for (const dir of dirs) if (!context.keepData) rmSync(dir, { recursive: true, force: true });
    }
  },
};

/**
 * The exact ten nearest stored messages (by content) of each question under each recall filter: a scan of every
 * vector in PostgreSQL ("+ 0" keeps the index out). Vectors are the same in both drivers (same model, same text),
 * so one exact answer serves both.
 */
async function exactAnswers(url: string, bridge: { url: string; apiKey: string }, questions: readonly string[]):
  Promise<Map<string, string[][]>> {
  const response = await fetch(`${bridge.url}/embed`, {
    method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${bridge.apiKey}` },
    body: JSON.stringify({ texts: questions }),
  });
  if (!response.ok) throw new Error(`bridge /embed answered ${response.status}`);
  const vectors = ((await response.json()) as { embeddings: number[][] }).embeddings;
  const pool = createPool(url, 1);
  const exact = new Map<string, string[][]>();
  try {
    for (const filter of RECALL_FILTERS) {
      const answers: string[][] = [];
      for (const vector of vectors) {
        const where = filter.folder ? 'WHERE c.folder = $2' : '';
        const { rows } = await pool.query<{ content: string }>(`SELECT m.content FROM message_vectors v
          JOIN messages m ON m.seq = v.message_seq JOIN conversations c ON c.id = m.conversation_id ${where}
          ORDER BY (v.embedding <=> $1::vector) + 0 LIMIT 10`, [`[${vector.join(',')}]`, ...(filter.folder ? [filter.folder] : [])]);
        answers.push(rows.map((row) => row.content));
      }
      exact.set(filter.name, answers);
    }
  } finally {
    await pool.end();
  }
  return exact;
}

function recallRows(driver: string, answers: Map<string, string[][]> | null, exact: Map<string, string[][]>): Measurement[] {
  if (!answers) return [];
  return RECALL_FILTERS.map((filter) => {
    const truth = exact.get(filter.name)!;
    const got = answers.get(filter.name)!;
    let found = 0;
    let wanted = 0;
    truth.forEach((ten, q) => {
      const returned = new Set(got[q] ?? []);
      wanted += ten.length;
      found += ten.filter((content) => returned.has(content)).length;
    });
    const value = wanted === 0 ? 1 : found / wanted;
    return {
      group: 'recall@10 vs exact', name: `${driver}, filter ${filter.name}`, count: truth.length, errors: 0, wall_ms: 0,
      throughput_per_s: 0, mean_ms: 0, min_ms: 0, p50_ms: 0, p95_ms: 0, p99_ms: 0, max_ms: 0, concurrency: 1,
      error_samples: [], note: `recall@10 = ${round(value, 3)}`, recall: value,
    } as Measurement & { recall: number };
  });
}

/** Concurrencies each replica is driven at, one after another: a curve of throughput against p95 for each setup. */
const REPLICA_CONCURRENCIES = [1, 2, 4] as const;
/** The concurrency of the one replica whose p95 the two are compared at. */
const BASELINE_CONCURRENCY = 4;

/**
 * Hybrid questions against one replica at each of REPLICA_CONCURRENCIES, then against each of two replicas of one
 * database (a second service started beside the first) at the same per-replica concurrencies. "Throughput at the same
 * p95": the two replicas' queries per second read off their curve at the p95 one replica has at BASELINE_CONCURRENCY.
 */
async function replicaThroughput(one: HttpClient, env: Record<string, string>, dataDir: string, questions: readonly string[],
  log: (message: string) => void): Promise<Measurement[]> {
  const bodies = questions.map((q) => JSON.stringify({ query: q, limit: 10 }));
  const load = (client: HttpClient, concurrency: number, offset: number) => runLoad({
    client, concurrency, maxRequests: 100 * concurrency, maxDurationMs: 120_000, warmupRequests: 20, expectStatus: 200,
    request: (i) => ({ method: 'POST', path: '/api/v1/query', body: bodies[(i + offset) % bodies.length]! }),
  });
  log('replicas: one, then two on one database, each at concurrency ' + REPLICA_CONCURRENCIES.join(', '));
  const rows: Measurement[] = [];
  const single: CurvePoint[] = [];
  for (const concurrency of REPLICA_CONCURRENCIES) {
    const result = await load(one, concurrency, 0);
    single.push({ concurrency, throughput: result.throughput_per_s, p95: result.p95_ms });
    rows.push({ group: 'replicas', name: `hybrid, one replica, concurrency ${concurrency}`, ...result });
  }
  const second = await spawnService({ dataDir, env: { ...env, MEMSVC_BRIDGE_PORT: String(await freePort()),
    MEMSVC_RATE_LIMIT_ENABLED: 'false', MEMSVC_EMBEDDING_WORKER_ENABLED: 'false' } });
  const other = createHttpClient(second.baseUrl, second.apiKey, 16);
  try {
    // With storage.vector_index local the new replica first builds its graph from the database.
    const started = performance.now();
    await waitFor(() => second.api('GET', '/health/detailed'), { what: 'the second replica\'s index to be ready',
      until: (response) => ['ready', 'database'].includes(response.body?.index?.state), timeoutMs: 60 * 60_000, intervalMs: 500 });
    const readyMs = performance.now() - started;
    if (readyMs > 2_000) log(`replicas: the second replica's graph caught up from the database in ${round(readyMs / 1000, 1)} s`);
    const pair: CurvePoint[] = [];
    for (const concurrency of REPLICA_CONCURRENCIES) {
      const [a, b] = await Promise.all([load(one, concurrency, 0), load(other, concurrency, 200)]);
      pair.push({ concurrency: 2 * concurrency, throughput: a.throughput_per_s + b.throughput_per_s, p95: Math.max(a.p95_ms, b.p95_ms) });
      rows.push({ group: 'replicas', name: `hybrid, two replicas, concurrency ${concurrency} each`, ...b,
        throughput_per_s: a.throughput_per_s + b.throughput_per_s, p95_ms: Math.max(a.p95_ms, b.p95_ms),
        note: `replica A ${round(a.throughput_per_s, 1)} q/s p95 ${round(a.p95_ms, 1)} ms; B ${round(b.throughput_per_s, 1)} q/s p95 ${round(b.p95_ms, 1)} ms` });
    }
    const baseline = single.find((point) => point.concurrency === BASELINE_CONCURRENCY)!;
    const same = throughputAt(pair, baseline.p95);
    const equal = pair.find((point) => point.concurrency === 2 * BASELINE_CONCURRENCY)!;
    const summary = `two replicas against one: at one replica's p95 at concurrency ${BASELINE_CONCURRENCY} (${round(baseline.p95, 1)} ms, ` +
      `${round(baseline.throughput, 1)} q/s) ` +
      (same === null ? 'two replicas never answer that fast' : `two replicas serve ${round(same, 1)} q/s = ${round(same / baseline.throughput, 2)}x`) +
      `; at concurrency ${BASELINE_CONCURRENCY} each ${round(equal.throughput / baseline.throughput, 2)}x (p95 ${round(equal.p95, 1)} ms)`;
    const last = rows[rows.length - 1]!;
    last.note = `${last.note}. ${summary}`;
    log(summary);
    return rows;
  } finally {
    other.close();
    second.child.kill('SIGTERM');
    await second.exited;
  }
}

interface CurvePoint { concurrency: number; throughput: number; p95: number }

/**
 * Queries per second on a curve of rising concurrency where its p95 reaches `p95`: linear between the two points
 * around it, the last point's if every point is faster, null if none is as fast.
 */
function throughputAt(curve: readonly CurvePoint[], p95: number): number | null {
  if (curve.length === 0 || curve[0]!.p95 > p95) return null;
  for (let i = 1; i < curve.length; i += 1) {
    const [low, high] = [curve[i - 1]!, curve[i]!];
    if (high.p95 >= p95) {
      const share = high.p95 === low.p95 ? 1 : (p95 - low.p95) / (high.p95 - low.p95);
      return low.throughput + share * (high.throughput - low.throughput);
    }
  }
  return curve[curve.length - 1]!.throughput;
}

/** The table: each figure for both drivers and PostgreSQL's ratio to SQLite (throughput: pg/sqlite, latency: pg/sqlite). */
function comparisonTable(runs: Map<string, DriverRun>, recall: Measurement[]): string[] {
  const sqlite = runs.get('sqlite')?.figures;
  const postgres = runs.get('postgres')?.figures;
  const lines = ['| figure | SQLite | PostgreSQL | PostgreSQL / SQLite |', '|---|---|---|---|'];
  const show = (value: number | undefined) => (value === undefined ? '-' : String(round(value, value >= 100 ? 0 : 1)));
  for (const [key, label] of FIGURES) {
    const a = sqlite?.[key];
    const b = postgres?.[key];
    const ratio = a !== undefined && b !== undefined && a > 0 ? `${round(b / a, 2)}x` : '-';
    lines.push(`| ${label} | ${show(a)} | ${show(b)} | ${ratio} |`);
  }
  for (const filter of RECALL_FILTERS) {
    const value = (driver: string) => (recall.find((row) => row.name === `${driver}, filter ${filter.name}`) as { recall?: number } | undefined)?.recall;
    const recallOf = (driver: string) => { const found = value(driver); return found === undefined ? '-' : found.toFixed(3); };
    lines.push(`| semantic recall@10, filter ${filter.name} | ${recallOf('sqlite')} | ${recallOf('postgres')} | |`);
  }
  lines.push(`(folders for filters: ${SELECTIVE_FOLDERS.map((f) => f.folder).join(', ')})`);
  return lines;
}

async function serverVersion(url: string): Promise<string> {
  const pool = createPool(url, 1);
  try {
    const { rows } = await pool.query<{ version: string; vector: string | null }>(`SELECT split_part(version(), ' on ', 1) AS version,
      (SELECT extversion FROM pg_extension WHERE extname = 'vector') AS vector`);
    return `${rows[0]!.version}, pgvector ${rows[0]!.vector ?? '-'}`;
  } finally {
    await pool.end();
  }
}
