/**
 * Conversation management over real HTTP: create throughput/latency, then
 * get-by-id and list latency against a store of `--conversations` conversations.
 */
import { allLabels, generateConversation, type CorpusOptions } from './lib/corpus.js';
import { createHttpClient, type HttpClient } from './lib/http-client.js';
import { measureHttp } from './lib/measure.js';
import { createRng } from './lib/prng.js';
import type { Measurement, Scenario, ScenarioContext, SeedingStep } from './lib/scenario.js';
import { startBenchServer } from './lib/server.js';
import { serverTask } from './lib/server-task.js';
import { round } from './lib/stats.js';

const SEED_CHUNK = 10_000;
const ID_POOL_TARGET = 5_000;

interface SeedArgs {
  corpus: CorpusOptions;
  start: number;
  count: number;
}

/** Fast seeding inside the server: the same ConversationService.create the route calls, minus HTTP and JSON. */
export const seedConversations = serverTask(import.meta.url, 'seedConversations',
  async (controller, args: SeedArgs) => {
    const started = performance.now();
    for (let i = 0; i < args.count; i += 1) {
      const generated = generateConversation(args.start + i, args.corpus);
      await controller.conversations.create({
        label: generated.label,
        folder: generated.folder,
        importanceScore: generated.importance_score,
        messages: generated.messages,
      });
    }
    return { wall_ms: performance.now() - started };
  });

export const storeTotals = serverTask(import.meta.url, 'storeTotals',
  async (controller, _args: Record<string, never>) => controller.store.totals());

export const scenario: Scenario = {
  name: 'conversations',
  description: 'create throughput, get-by-id and list latency over HTTP',
  options: {
    conversations: { kind: 'number', description: 'conversations in the store for the read measurements', default: 100_000, quick: 2_000 },
    messages: { kind: 'number', description: 'messages per conversation (20-60 words each)', default: 10 },
    'create-count': { kind: 'number', description: 'HTTP creates measured per create concurrency level', default: 2_000, quick: 100 },
    'create-concurrency': { kind: 'numbers', description: 'concurrency levels for create', default: [1, 8] },
    'create-seconds': { kind: 'number', description: 'time cap per create measurement', default: 30, quick: 5 },
    'read-count': { kind: 'number', description: 'requests per read measurement', default: 2_000, quick: 200 },
    'read-seconds': { kind: 'number', description: 'time cap per read measurement', default: 10, quick: 2 },
    'get-concurrency': { kind: 'numbers', description: 'concurrency levels for get-by-id', default: [1, 8] },
    'list-concurrency': { kind: 'numbers', description: 'concurrency levels for the list variants', default: [1] },
    'page-size': { kind: 'number', description: 'list page size', default: 50 },
    warmup: { kind: 'number', description: 'unmeasured requests before each measurement', default: 50, quick: 10 },
    seed: { kind: 'number', description: 'PRNG seed of the synthetic corpus', default: 42 },
  },
  run,
};

async function run(context: ScenarioContext) {
  const target = context.number('conversations');
  const corpus: CorpusOptions = { seed: context.number('seed'), messagesPerConversation: context.number('messages') };
  const warmup = context.number('warmup');
  const maxConcurrency = Math.max(...context.numbers('create-concurrency'), ...context.numbers('get-concurrency'),
    ...context.numbers('list-concurrency'));

  const server = await startBenchServer({
    mode: context.serverMode,
    keepData: context.keepData,
    ...(context.dataDir !== undefined ? { dataDir: context.dataDir } : {}),
  });
  const client = createHttpClient(server.baseUrl, server.apiKey, maxConcurrency);
  context.log(`controller (${server.mode}) at ${server.baseUrl}, data in ${server.dataDir}`);
  try {
    const measurements: Measurement[] = [];
    const seeding: SeedingStep[] = [];

    // 1. Create over HTTP; these conversations are also the first part of the data set.
    // A reused data dir (--data-dir) already holds conversations: continue the corpus after them.
    const existing = await countConversations(client);
    let nextIndex = existing;
    for (const concurrency of context.numbers('create-concurrency')) {
      // On a fresh store, never create more than the target; on a full reused one, measure anyway.
      const budget = existing >= target ? Number.POSITIVE_INFINITY : Math.max(0, target - nextIndex - warmup);
      const count = Math.min(context.number('create-count'), budget);
      if (count <= 0) break;
      const base = nextIndex;
      const bodies = Array.from({ length: warmup + count }, (_, i) => JSON.stringify(generateConversation(base + i, corpus)));
      const sizeBefore = await countConversations(client);
      let issued = 0;
      const measurement = await measureHttp(context, server, client, {
        group: 'create',
        name: `POST /conversations (${corpus.messagesPerConversation} msgs)`,
        note: `store held ${sizeBefore} conversations at start`,
        concurrency,
        maxRequests: count,
        maxDurationMs: context.number('create-seconds') * 1000,
        warmupRequests: warmup,
        expectStatus: 201,
        request: (i) => {
          issued = Math.max(issued, i + 1);
          return { method: 'POST', path: '/api/v1/conversations', body: bodies[i]! };
        },
      });
      measurements.push(measurement);
      nextIndex += issued;
      seeding.push({
        method: `HTTP POST /api/v1/conversations (c=${concurrency}, incl. ${warmup} warm-up)`,
        count: measurement.count + Math.min(warmup, issued),
        wall_ms: measurement.wall_ms,
        rate_per_s: measurement.throughput_per_s,
        note: 'rate of the measured part',
      });
    }

    // 2. Seed the rest in-process (same service code path, no HTTP), in chunks to show progress.
    let have = await countConversations(client);
    if (have < target) {
      const total = target - have;
      context.log(`seeding ${total.toLocaleString('en-US')} conversations in-process via ConversationService.create`);
      let wall = 0;
      for (let done = 0; done < total; done += SEED_CHUNK) {
        const count = Math.min(SEED_CHUNK, total - done);
        const result = await server.exec(seedConversations, { corpus, start: nextIndex, count });
        nextIndex += count;
        wall += result.wall_ms;
        context.log(`  ${(done + count).toLocaleString('en-US')}/${total.toLocaleString('en-US')} ` +
          `(${Math.round(((done + count) * 1000) / wall)}/s, db ${mb(server.databaseSize().total_bytes)} MB)`);
      }
      seeding.push({
        method: 'in-process ConversationService.create (one transaction per conversation, no HTTP)',
        count: total,
        wall_ms: round(wall),
        rate_per_s: round((total * 1000) / wall),
      });
      have = await countConversations(client);
    }

    const totals = await server.exec(storeTotals, {});
    const size = server.databaseSize();
    const dataset = {
      conversations: totals.conversations,
      messages: totals.messages,
      messages_per_conversation: corpus.messagesPerConversation,
      words_per_message: '20-60',
      db_file_mb: mb(size.db_bytes),
      wal_file_mb: mb(size.wal_bytes),
      db_total_mb: mb(size.total_bytes),
    };
    context.log(`data set: ${totals.conversations} conversations, ${totals.messages} messages, ${mb(size.total_bytes)} MB`);

    // 3. Get by id, over ids spread across the whole data set, in a fixed shuffled order.
    const ids = await sampleIds(client, have);
    const rng = createRng(corpus.seed);
    for (let i = ids.length - 1; i > 0; i -= 1) {
      const j = rng.int(0, i);
      [ids[i], ids[j]] = [ids[j]!, ids[i]!];
    }
    for (const concurrency of context.numbers('get-concurrency')) {
      measurements.push(await measureHttp(context, server, client, {
        group: 'get',
        name: 'GET /conversations/{id}',
        note: `random ids from a pool of ${ids.length}; each read also updates last access`,
        concurrency,
        maxRequests: context.number('read-count'),
        maxDurationMs: context.number('read-seconds') * 1000,
        warmupRequests: warmup,
        expectStatus: 200,
        request: (i) => ({ method: 'GET', path: `/api/v1/conversations/${ids[i % ids.length]!}` }),
      }));
    }

    // 4. List variants.
    const pageSize = context.number('page-size');
    const deepPage = Math.max(1, Math.floor(have / pageSize / 2));
    const variants: Array<{ name: string; query: string }> = [
      { name: 'list first page', query: `page=1&page_size=${pageSize}` },
      { name: `list deep page ${deepPage} (offset ${(deepPage - 1) * pageSize})`, query: `page=${deepPage}&page_size=${pageSize}` },
      { name: 'list folder=/work (subtree)', query: `folder=${encodeURIComponent('/work')}&page_size=${pageSize}` },
      { name: 'list folder=/work/backend/api (leaf)', query: `folder=${encodeURIComponent('/work/backend/api')}&page_size=${pageSize}` },
      { name: `list label="${allLabels()[0]!}"`, query: `label=${encodeURIComponent(allLabels()[0]!)}&page_size=${pageSize}` },
      { name: 'list pinned=true', query: `pinned=true&page_size=${pageSize}` },
      { name: 'list archived=false', query: `archived=false&page_size=${pageSize}` },
    ];
    for (const variant of variants) {
      const path = `/api/v1/conversations?${variant.query}`;
      const probe = await client.request('GET', path);
      const matches = probe.status === 200 ? (JSON.parse(probe.body) as { total: number }).total : -1;
      for (const concurrency of context.numbers('list-concurrency')) {
        measurements.push(await measureHttp(context, server, client, {
          group: 'list',
          name: variant.name,
          note: `${matches} matching conversations; page_size ${pageSize}`,
          concurrency,
          maxRequests: context.number('read-count'),
          maxDurationMs: context.number('read-seconds') * 1000,
          warmupRequests: warmup,
          expectStatus: 200,
          request: () => ({ method: 'GET', path }),
        }));
      }
    }

    return {
      dataset,
      seeding,
      measurements,
      notes: [
        `server: real controller (${server.mode === 'child' ? 'separate Node process' : 'in the bench process'}), ` +
          `SQLite file in ${context.dataDir !== undefined ? 'a reused data dir' : 'a fresh temp dir'}, logger off, rate limit off, no embedding worker or bridge`,
        'client: node:http keep-alive, closed loop at fixed concurrency, on the same machine as the server',
        'list rows include the matching total (a count over the filter) as the API returns it',
        'srv cpu = server process CPU time / wall time (100% = one core)',
        ...(existing > 0 ? [`${existing} conversations were already in the reused data dir ${server.dataDir}`] : []),
        ...(context.keepData ? [`data kept in ${server.dataDir}`] : []),
      ],
    };
  } finally {
    client.close();
    await server.close();
  }
}

/** About ID_POOL_TARGET ids from pages spread evenly over the whole list (fetched before, not measured). */
async function sampleIds(client: HttpClient, total: number): Promise<string[]> {
  const pageSize = 250;
  const pages = Math.max(1, Math.ceil(total / pageSize));
  const wanted = Math.min(pages, Math.ceil(ID_POOL_TARGET / pageSize));
  const ids: string[] = [];
  for (let k = 0; k < wanted; k += 1) {
    const page = 1 + Math.floor((k * pages) / wanted);
    const response = await client.request('GET', `/api/v1/conversations?page=${page}&page_size=${pageSize}`);
    if (response.status !== 200) throw new Error(`listing ids failed: ${response.status} ${response.body}`);
    ids.push(...(JSON.parse(response.body) as { results: Array<{ conversation_id: string }> }).results
      .map((item) => item.conversation_id));
  }
  return ids;
}

async function countConversations(client: HttpClient): Promise<number> {
  const response = await client.request('GET', '/api/v1/conversations/count');
  if (response.status !== 200) throw new Error(`count failed: ${response.status} ${response.body}`);
  return (JSON.parse(response.body) as { count: number }).count;
}

function mb(bytes: number): number {
  return round(bytes / 2 ** 20, 1);
}

