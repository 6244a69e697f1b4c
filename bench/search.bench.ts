/**
 * Search figures: builtin embedding throughput, ingest-to-searchable latency,
 * semantic (HNSW) search latency and its recall@10 against exact search, and
 * full-text latency, at two store sizes. Runs the real bridge (builtin offline
 * engine) and controller in this process (test/helpers/service-harness.ts), so
 * embedding and serving share one event loop: figures are conservative.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import { createBuiltinEmbedder } from '../src/bridge/builtin/embedding/builtin-embedder.js';
import { SHARED_MODEL_CACHE, startService, type RunningService } from '../test/helpers/service-harness.js';
import { generateConversation } from './lib/corpus.js';
import { createHttpClient } from './lib/http-client.js';
import type { Measurement, Scenario, SeedingStep } from './lib/scenario.js';
import { percentile, round, summarize } from './lib/stats.js';
import { BENCH_QUERIES, searchLatency } from './lib/search-queries.js';


export const scenario: Scenario = {
  name: 'search',
  description: 'embedding throughput, ingest-to-searchable, semantic/FTS latency and HNSW recall@10 vs exact',
  options: {
    sizes: { kind: 'numbers', description: 'store sizes in messages to measure at', default: [10_000, 100_000], quick: [2_000] },
    'embed-sample': { kind: 'number', description: 'messages for the raw embedder throughput', default: 5_000, quick: 500 },
    requests: { kind: 'number', description: 'measured requests per latency row', default: 300, quick: 50 },
    'recall-queries': { kind: 'number', description: 'queries for recall@10 against exact search', default: 50, quick: 10 },
    refinement: { kind: 'string', description: 'hybrid second stage (named authors and periods, session evidence): on | off', default: 'on' },
    'scoped-statistics': { kind: 'string', description: 'full-text term statistics from the filtered scope (search.scoped_statistics): on | off', default: 'on' },
  },
  async run(context) {
    const dataDir = mkdtempSync(join(tmpdir(), 'memsvc-bench-search-'));
    const measurements: Measurement[] = [];
    const seeding: SeedingStep[] = [];
    const dataset: Record<string, number | string> = {};
    const search = {
      ...(context.string('refinement') === 'off' ? { author_weight: 0, session_weight: 0, time_weight: 0 } : {}),
      scoped_statistics: context.string('scoped-statistics') !== 'off',
    };
    const stack = await startService({ bridge: 'builtin', logger: { level: 'warn' }, dataDir, overrides: { embedding_worker: { batch_size: 128 }, search } });
    const client = createHttpClient(stack.baseUrl, stack.apiKey, 8);
    try {
      measurements.push(await embedderThroughput(context.number('embed-sample')));
      let messages = 0;
      let conversations = 0;
      for (const size of context.numbers('sizes')) {
        context.log(`seeding up to ${size} messages`);
        const started = performance.now();
        const before = messages;
        while (messages < size) {
          const generated = generateConversation(conversations, { seed: 42, messagesPerConversation: 10 });
          await stack.controller.conversations.create({
            label: generated.label, folder: generated.folder, messages: generated.messages,
            importanceScore: generated.importance_score,
          });
          conversations += 1;
          messages += generated.messages.length;
        }
        await stack.waitForEmbeddings();
        const wallMs = performance.now() - started;
        seeding.push({
          method: 'ConversationService.create in process, then the embedding worker through the bridge over HTTP',
          count: messages - before, wall_ms: round(wallMs, 0), rate_per_s: round(((messages - before) / wallMs) * 1000, 1),
          note: 'stored, full-text indexed, embedded and in the HNSW index',
        });
        dataset[`messages_at_${size}`] = messages;
        context.log(`measuring at ${messages} messages`);
        measurements.push(await ingestToSearchable(stack, 20, size));
        measurements.push(...await searchLatency(client, { requests: context.number('requests'), group: `at ${size}`, maxDurationMs: 30_000, warmup: 20 }));
        measurements.push(await recallAgainstExact(stack, dataDir, context.number('recall-queries'), size));
      }
      dataset.conversations = conversations;
      dataset.messages = messages;
      return {
        dataset, seeding, measurements,
        notes: ["bridge (builtin engine) and controller share this process; HNSW: usearch f16, M=32, ef_add 200, ef_search 128"],
      };
    } finally {
      client.close();
      await stack.stop();
      rmSync(dataDir, { recursive: true, force: true });
    }
  },
};

async function embedderThroughput(count: number): Promise<Measurement> {
  const embedder = await createBuiltinEmbedder({ cacheDir: SHARED_MODEL_CACHE });
  const texts = Array.from({ length: count }, (_, i) =>
    generateConversation(i, { seed: 7, messagesPerConversation: 1 }).messages[0]!.content);
  const latencies: number[] = [];
  const started = performance.now();
  for (let i = 0; i < texts.length; i += 64) {
    const t0 = performance.now();
    await embedder.embed(texts.slice(i, i + 64));
    latencies.push(performance.now() - t0);
  }
  const wall = performance.now() - started;
  const summary = summarize(latencies, 0, wall);
  return {
    group: 'embed', name: `builtin embedder, batches of 64 (${count} messages of 20-60 words)`, concurrency: 1,
    ...summary, error_samples: [],
    note: `${round((count / wall) * 1000, 0)} messages/s; latency is per batch of 64`,
  };
}

/** From POST (acknowledged) to the first semantic query that returns the new message. */
async function ingestToSearchable(stack: RunningService, samples: number, size: number): Promise<Measurement> {
  const latencies: number[] = [];
  for (let i = 0; i < samples; i += 1) {
    const marker = `zebrafish${size}x${i} aquarium lighting schedule`;
    const started = performance.now();
    const created = await stack.api('POST', '/api/v1/conversations', {
      label: 'ingest probe', folder: '/bench/ingest', messages: [{ role: 'user', content: marker }],
    });
    const id = (created.body as { id: string }).id;
    for (;;) {
      const found = await stack.api('POST', '/api/v1/query', {
        query: marker, mode: 'semantic', limit: 1, filters: { folder: '/bench/ingest' },
      });
      const hits = (found.body as { results: Array<{ conversation_id: string }> }).results;
      if (hits[0]?.conversation_id === id) break;
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    latencies.push(performance.now() - started);
  }
  return {
    group: `at ${size}`, name: 'ingest to searchable (POST -> semantic hit)', concurrency: 1,
    ...summarize(latencies, 0, latencies.reduce((a, b) => a + b, 0)), error_samples: [],
  };
}


/** Top-10 of the HNSW path (semantic mode, no filter) against exact cosine over every stored vector. */
async function recallAgainstExact(stack: RunningService, dataDir: string, queries: number, size: number): Promise<Measurement> {
  const db = new BetterSqlite3(join(dataDir, 'memsvc.db'), { readonly: true });
  try {
    const rows = db.prepare('SELECT m.id, v.vector FROM message_vectors v JOIN messages m ON m.seq = v.message_seq')
      .all() as Array<{ id: string; vector: Buffer }>;
    const vectors = rows.map((row) => {
      const bytes = new Uint8Array(row.vector.byteLength);
      bytes.set(row.vector);
      return new Float32Array(bytes.buffer);
    });
    const recalls: number[] = [];
    const latencies: number[] = [];
    for (let q = 0; q < queries; q += 1) {
      const query = `${BENCH_QUERIES[q % BENCH_QUERIES.length]} ${['today', 'again', 'soon', 'please'][Math.floor(q / BENCH_QUERIES.length) % 4]}`;
      const t0 = performance.now();
      const response = await stack.api('POST', '/api/v1/query', { query, mode: 'semantic', limit: 10 });
      latencies.push(performance.now() - t0);
      const approximate = (response.body as { results: Array<{ message_id: string }> }).results.map((hit) => hit.message_id);
      const embedded = await fetch(`${stack.bridgeUrl}/embed`, {
        method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ texts: [query] }),
      });
      const queryVector = Float32Array.from(((await embedded.json()) as { embeddings: number[][] }).embeddings[0]!);
      const scores = vectors.map((vector, index) => {
        let dot = 0;
        for (let i = 0; i < vector.length; i += 1) dot += vector[i]! * queryVector[i]!;
        return { id: rows[index]!.id, dot };
      });
      scores.sort((a, b) => b.dot - a.dot);
      const exact = new Set(scores.slice(0, 10).map((s) => s.id));
      recalls.push(approximate.filter((id) => exact.has(id)).length / 10);
    }
    const sorted = [...latencies].sort((a, b) => a - b);
    const recall = recalls.reduce((a, b) => a + b, 0) / recalls.length;
    return {
      group: `at ${size}`, name: `semantic recall@10 vs exact (${queries} queries, ${rows.length} vectors)`, concurrency: 1,
      ...summarize(latencies, 0, latencies.reduce((a, b) => a + b, 0)), error_samples: [],
      note: `recall@10 = ${round(recall, 3)} (p50 ${round(percentile(sorted, 0.5), 1)} ms)`,
    };
  } finally {
    db.close();
  }
}
