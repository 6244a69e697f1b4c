import { existsSync, mkdirSync, rmSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { spawnService, type ServiceProcess } from '../../test/helpers/service-harness.js';
import { freePort, SHARED_MODEL_CACHE } from './bridge.js';
import { SELECTIVE_FOLDERS, type DialogueCorpus } from './dialogue-corpus.js';
import { createHttpClient, type HttpClient } from './http-client.js';
import { runLoad, type LoadResult } from './load.js';
import type { Measurement } from './scenario.js';
import { round, summarize } from './stats.js';
import { tenancyRows } from './tenancy-rows.js';

/**
 * Storage drivers measured from outside, as users run them: `src/main.ts` (controller and its bridge) in its own
 * process per driver, the same real-text corpus sent over HTTP at concurrency 8 (one driver at a time), then the
 * same questions in every mode, question by question to each driver in turn, so their rows compare like for like.
 */
export interface DriverRun {
  measurements: Measurement[];
  /** Headline figures by row name (see FIGURES), for the comparison table. */
  figures: Record<string, number>;
  /** Semantic top-10 contents per filter ('' = none) and question, for recall against an exact scan. */
  semanticAnswers: Map<string, string[][]>;
}

export interface DriverRunOptions {
  name: string;
  corpus: DialogueCorpus;
  messages: number;
  requests: number;
  recallQuestions: number;
  dataDir: string;
  /** MEMSVC_* settings that choose the driver (e.g. MEMSVC_STORAGE_DRIVER=postgres). */
  env: Record<string, string>;
  log(message: string): void;
  /** Runs while the service is up, after the latency rows (a second replica, say). */
  extra?: (service: ServiceProcess, client: HttpClient, bridge: { url: string; apiKey: string }) => Promise<Measurement[]>;
}

const CONCURRENCY = 8;
const HOURS = 60 * 60_000;

/** The filter of each recall row: none, then folders holding a tenth, a hundredth and a thousandth of the store. */
export const RECALL_FILTERS: ReadonlyArray<{ name: string; folder: string | null }> = [
  { name: 'none', folder: null },
  ...SELECTIVE_FOLDERS.map(({ folder, share }) => ({ name: `${share * 100}%`, folder })),
];

/** A driver's service, up and holding the corpus, with the rows measured so far. */
export interface StartedDriver {
  options: DriverRunOptions;
  service: ServiceProcess;
  client: HttpClient;
  bridgePort: number;
  group: string;
  measurements: Measurement[];
  figures: Record<string, number>;
}

/** Starts the driver's service and loads the corpus over HTTP: the ingest, pipeline and read-during-ingest rows. */
export async function startDriver(options: DriverRunOptions): Promise<StartedDriver> {
  const { corpus, messages } = options;
  mkdirSync(options.dataDir, { recursive: true });
  linkModelCache(options.dataDir);
  const bridgePort = await freePort();
  const service = await spawnService({
    dataDir: options.dataDir,
    env: {
      MEMSVC_BRIDGE_PORT: String(bridgePort), MEMSVC_RATE_LIMIT_ENABLED: 'false', MEMSVC_SERVER_LOG_LEVEL: 'warn',
      ...options.env,
    },
  });
  const client = createHttpClient(service.baseUrl, service.apiKey, 16);
  const started: StartedDriver = { options, service, client, bridgePort, group: `${options.name}, ${messages} msgs`, measurements: [], figures: {} };
  const { measurements, figures, group } = started;
  try {
    const conversations = Math.ceil(messages / 10);
    const bodies = (i: number) => JSON.stringify(corpus.conversation(i));
    const created: string[] = [];
    options.log(`${options.name}: ingesting ${conversations} conversations over HTTP`);
    const reads = readWhileIngesting(client, created);
    const startedAt = performance.now();
    const ingest = await runLoad({
      client, concurrency: CONCURRENCY, maxRequests: conversations, maxDurationMs: 6 * HOURS, expectStatus: 201,
      request: (i) => ({ method: 'POST', path: '/api/v1/conversations', body: bodies(i) }),
      onResponse: (_, response) => { created.push((JSON.parse(response.body) as { id: string }).id); },
    });
    const acknowledgedMs = performance.now() - startedAt;
    figures.ack = (messages / acknowledgedMs) * 1000;
    measurements.push({ group, name: 'POST /conversations (10 messages), concurrency 8', ...ingest,
      note: `${round(figures.ack, 0)} messages/s acknowledged` });
    options.log(`${options.name}: ${round(figures.ack, 0)} msgs/s acknowledged; waiting for the pipeline`);
    await service.waitForEmbeddings(6 * HOURS, { inGraph: true });
    const pipelineMs = performance.now() - startedAt;
    figures.pipeline = (messages / pipelineMs) * 1000;
    measurements.push({ group, name: 'stored -> embedded -> indexed (whole pipeline)', concurrency: CONCURRENCY,
      ...summarize([pipelineMs], 0, pipelineMs), error_samples: [],
      note: `${round(figures.pipeline, 0)} messages/s through the pipeline` });
    const during = await reads.stop();
    figures.getP99 = during.p99_ms;
    measurements.push({ group, name: 'GET /conversations/{id} while ingest and pipeline run', ...during });
    return started;
  } catch (error) {
    await stopDriver(started);
    throw error;
  }
}

/**
 * The latency rows, every question sent to each started driver in turn, one request at a time (the first driver
 * alternating), so that a slow phase of the machine falls on all of them alike and their ratio holds.
 */
export async function measureLatencies(drivers: readonly StartedDriver[], corpus: DialogueCorpus, requests: number,
  log: (message: string) => void): Promise<void> {
  log(`latency rows: ${drivers.map((driver) => driver.options.name).join(' and ')}, question by question`);
  const rows: Array<[string, string, (q: string) => object]> = [
    ['semantic', '/api/v1/query', (q) => ({ query: q, mode: 'semantic', limit: 10 })],
    ['semantic, 10% folder', '/api/v1/query', (q) => ({ query: q, mode: 'semantic', limit: 10, filters: { folder: SELECTIVE_FOLDERS[0].folder } })],
    ['hybrid', '/api/v1/query', (q) => ({ query: q, limit: 10 })],
    ['hybrid, 10% folder', '/api/v1/query', (q) => ({ query: q, limit: 10, filters: { folder: SELECTIVE_FOLDERS[0].folder } })],
    ['keyword', '/api/v1/query', (q) => ({ query: q, mode: 'keyword', limit: 10 })],
    ['full text', '/api/v1/search/fts', (q) => ({ query: ftsWords(q), limit: 10 })],
    ['context', '/api/v1/context/assemble', (q) => ({ query: q })],
  ];
  for (const [name, path, body] of rows) {
    const encoded = corpus.questions.map((q) => JSON.stringify(body(q)));
    const results = await alternating(drivers.map((driver) => driver.client), path, (i) => encoded[(i + 17) % encoded.length]!, requests);
    drivers.forEach((driver, d) => {
      const result = results[d]!;
      driver.figures[`${name} p50`] = result.p50_ms;
      driver.figures[`${name} p95`] = result.p95_ms;
      driver.measurements.push({ group: driver.group, name: `POST ${path.replace('/api/v1', '')} ${name}`, ...result });
    });
  }
}

/** Tenancy and recall rows, then whatever `extra` measures; stops the service. */
export async function finishDriver(started: StartedDriver): Promise<DriverRun> {
  const { options, service, client, measurements, figures, group } = started;
  try {
    const { questions } = options.corpus;
    const granted = SELECTIVE_FOLDERS[1];
    const share = `${granted.share * 100}%`;
    const tenancy = await tenancyRows({ baseUrl: service.baseUrl, admin: client, folder: granted.folder, share,
      questions, requests: options.requests, group });
    measurements.push(...tenancy);
    for (const mode of ['hybrid', 'semantic']) {
      const row = tenancy.find((measured) => measured.name === `POST /query ${mode}, tenant key (${share} grant)`);
      if (row) figures[`tenant ${mode} p95`] = row.p95_ms;
    }
    const semanticAnswers = new Map<string, string[][]>();
    for (const filter of RECALL_FILTERS) {
      const answers: string[][] = [];
      for (const question of questions.slice(0, options.recallQuestions)) {
        const response = await client.request('POST', '/api/v1/query', JSON.stringify({ query: question, mode: 'semantic', limit: 10,
          ...(filter.folder ? { filters: { folder: filter.folder } } : {}) }));
        if (response.status !== 200) throw new Error(`semantic query answered ${response.status}: ${response.body.slice(0, 200)}`);
        answers.push((JSON.parse(response.body) as { results: Array<{ content: string }> }).results.map((hit) => hit.content));
      }
      semanticAnswers.set(filter.name, answers);
    }
    if (options.extra) {
      measurements.push(...await options.extra(service, client, { url: `http://127.0.0.1:${started.bridgePort}`, apiKey: service.apiKey }));
    }
    return { measurements, figures, semanticAnswers };
  } finally {
    await stopDriver(started);
  }
}

/** Stops the service (again: a no-op once it has exited). */
export async function stopDriver(started: StartedDriver): Promise<void> {
  started.client.close();
  if (started.service.child.exitCode !== null || started.service.child.signalCode !== null) return;
  started.service.child.kill('SIGTERM');
  await started.service.exited;
}

/** Request i goes to every client in turn at concurrency 1, after ten unmeasured rounds; a summary per client. */
async function alternating(clients: readonly HttpClient[], path: string, body: (i: number) => string, requests: number): Promise<LoadResult[]> {
  const warmup = 10;
  const latencies = clients.map((): number[] => []);
  const errors = clients.map(() => 0);
  const samples = clients.map((): string[] => []);
  const busyMs = clients.map(() => 0);
  for (let i = 0; i < warmup + requests; i += 1) {
    for (let turn = 0; turn < clients.length; turn += 1) {
      const c = (i + turn) % clients.length;
      const start = performance.now();
      const response = await clients[c]!.request('POST', path, body(i)).catch((error: Error) => ({ status: 0, body: error.message }));
      const elapsed = performance.now() - start;
      if (i < warmup) continue;
      busyMs[c]! += elapsed;
      if (response.status === 200) latencies[c]!.push(elapsed);
      else {
        errors[c]! += 1;
        if (samples[c]!.length < 5) samples[c]!.push(`POST ${path} -> ${response.status} ${response.body.slice(0, 200)}`);
      }
    }
  }
  return clients.map((_, c) => ({ ...summarize(latencies[c]!, errors[c]!, busyMs[c]!), concurrency: 1, error_samples: samples[c]! }));
}

/** Two content words of a question as an explicit full-text query ("caroline OR research"). */
export function ftsWords(question: string): string {
  const words = question.toLowerCase().match(/[a-z]{4,}/g) ?? ['what'];
  return words.slice(0, 2).join(' OR ');
}

/** A GET of a recently created conversation, one at a time, until stopped: what a reader sees during ingest. */
function readWhileIngesting(client: HttpClient, created: readonly string[]) {
  const latencies: number[] = [];
  let errors = 0;
  let running = true;
  const started = performance.now();
  const loop = (async () => {
    while (running) {
      if (created.length === 0) { await new Promise((resolve) => setTimeout(resolve, 20)); continue; }
      const id = created[Math.floor(Math.random() * created.length)]!;
      const t0 = performance.now();
      const response = await client.request('GET', `/api/v1/conversations/${id}`).catch(() => ({ status: 0 }));
      if (response.status === 200) latencies.push(performance.now() - t0);
      else errors += 1;
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
  })();
  return {
    async stop() {
      running = false;
      await loop;
      return { ...summarize(latencies, errors, performance.now() - started), concurrency: 1, error_samples: [] };
    },
  };
}

/** The bridge's word-vector cache is the repository's shared one, so each fresh data dir does not rebuild it. */
function linkModelCache(dataDir: string): void {
  mkdirSync(SHARED_MODEL_CACHE, { recursive: true });
  const cache = join(dataDir, 'cache');
  if (!existsSync(cache)) {
    rmSync(cache, { force: true });
    symlinkSync(SHARED_MODEL_CACHE, cache);
  }
}
