/**
 * The postgres driver at size: acknowledged ingest over HTTP (10-message
 * conversations, concurrency 8), the pipeline to embedded and indexed, search
 * latency in every mode, and pgvector recall@10 (the configured index: ivfflat
 * or HNSW) against an exact scan in the same database. Runs on PGlite (PostgreSQL 18 + pgvector 0.8 compiled to
 * WebAssembly: one thread, in this process) unless --url names a server.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createPool } from '../src/adapters/postgres/postgres-pool.js';
import { DEFAULT_VECTOR_INDEX, type IvfflatState, type VectorIndexKind } from '../src/adapters/postgres/postgres-vector-index.js';
import { startService } from '../test/helpers/service-harness.js';
import { startPgliteServer } from '../scripts/lib/pglite-server.js';
import { generateConversation } from './lib/corpus.js';
import { createHttpClient, type HttpClient } from './lib/http-client.js';
import { runLoad } from './lib/load.js';
import type { Measurement, Scenario } from './lib/scenario.js';
import { round, summarize } from './lib/stats.js';
import { BENCH_QUERIES, searchLatency } from './lib/search-queries.js';


export const scenario: Scenario = {
  name: 'postgres',
  description: 'postgres driver: HTTP ingest, pipeline, search latency per mode, pgvector recall@10 vs exact',
  options: {
    messages: { kind: 'number', description: 'messages to store (10 per conversation)', default: 100_000, quick: 2_000 },
    requests: { kind: 'number', description: 'measured requests per latency row', default: 200, quick: 30 },
    url: { kind: 'string', description: 'a PostgreSQL server with pgvector (default: PGlite in process)', default: '' },
    'vector-index': { kind: 'string', description: 'storage.vector_index: ivfflat or hnsw', default: 'ivfflat' },
  },
  async run(context) {
    const dataDir = mkdtempSync(join(tmpdir(), 'memsvc-bench-pg-'));
    const pglite = context.string('url') === '' ? await startPgliteServer() : null;
    const url = pglite?.url ?? context.string('url');
    const stack = await startService({ bridge: 'builtin', logger: { level: 'warn' },
      dataDir, overrides: { storage: { driver: 'postgres', url, pool_size: 8, vector_index: context.string('vector-index') as VectorIndexKind },
        embedding_worker: { batch_size: 128 } },
    });
    const client = createHttpClient(stack.baseUrl, stack.apiKey, 8);
    const measurements: Measurement[] = [];
    const total = context.number('messages');
    try {
      const conversations = Math.ceil(total / 10);
      const bodies = (i: number) => {
        const c = generateConversation(i, { seed: 42, messagesPerConversation: 10 });
        return JSON.stringify({ label: c.label, folder: c.folder, importance_score: c.importance_score, messages: c.messages });
      };
      context.log(`ingesting ${conversations} conversations over HTTP`);
      const started = performance.now();
      const ingest = await runLoad({
        client, concurrency: 8, maxRequests: conversations, maxDurationMs: 6 * 60 * 60_000, expectStatus: 201,
        request: (i) => ({ method: 'POST', path: '/api/v1/conversations', body: bodies(i) }),
      });
      const acknowledgedMs = performance.now() - started;
      measurements.push({ group: 'ingest', name: 'POST /conversations (10 messages), concurrency 8', ...ingest,
        note: `${round((total / acknowledgedMs) * 1000, 0)} messages/s acknowledged` });
      await stack.waitForEmbeddings(6 * 60 * 60_000);
      const pipelineMs = performance.now() - started;
      const index = await indexInLine(url, context.string('vector-index'), total);
      const inLineMs = performance.now() - started;
      measurements.push({ group: 'ingest', name: 'stored -> embedded -> indexed (whole pipeline)', concurrency: 8,
        ...summarize([pipelineMs], 0, pipelineMs), error_samples: [],
        note: `${round((total / pipelineMs) * 1000, 0)} messages/s through the pipeline; ${index} in line ` +
          `${round((inLineMs - pipelineMs) / 1000, 1)} s later` });
      measurements.push(...await searchLatency(client, { requests: context.number('requests'), group: `at ${total}`, maxDurationMs: 120_000, warmup: 10 }));
      measurements.push(await recallAgainstExact(stack.bridgeUrl!, client, url, 30, total));
      return {
        dataset: { messages: total, conversations, server: pglite ? 'PGlite (PostgreSQL 18 + pgvector 0.8, WASM, 1 thread)' : url.replace(/\/\/[^@]*@/, '//') },
        seeding: [{ method: 'HTTP POST /api/v1/conversations, concurrency 8', count: total, wall_ms: round(acknowledgedMs, 0),
          rate_per_s: round((total / acknowledgedMs) * 1000, 1) }],
        measurements,
        notes: ['bridge (builtin engine), controller and PGlite share this process and its 2 cores'],
      };
    } finally {
      client.close();
      await stack.stop();
      await pglite?.stop();
      rmSync(dataDir, { recursive: true, force: true });
    }
  },
};


/**
 * Waits until the vector index is the one a store of this size keeps (an ivfflat index is learned from the stored
 * vectors behind the pipeline: built at 10,000 and each time they double) and says which it is.
 */
async function indexInLine(url: string, kind: string, total: number): Promise<string> {
  const pool = createPool(url, 1);
  try {
    if (kind === 'hnsw') return 'HNSW (m 16, ef_construction 64)';
    if (total < DEFAULT_VECTOR_INDEX.minRows) return 'no index (exact scans below 10,000 vectors)';
    // A build that fails is logged by the service and tried again only after many more vectors: do not wait forever.
    const deadline = Date.now() + 30 * 60_000;
    for (;;) {
      if (Date.now() > deadline) throw new Error('the ivfflat index was not built within 30 minutes (see the service log)');
      const { rows } = await pool.query<{ key: string; value: string }>(
        `SELECT key, value FROM service_state WHERE key IN ('vector_index', 'vector_index_build')`);
      const state = rows.find((row) => row.key === 'vector_index');
      const building = rows.some((row) => row.key === 'vector_index_build');
      if (state && !building) {
        const { lists, rows: learned } = JSON.parse(state.value) as IvfflatState;
        if (learned * DEFAULT_VECTOR_INDEX.growth > total) {
          return `ivfflat (${lists} lists learned from ${learned} vectors, ${DEFAULT_VECTOR_INDEX.probeShare} of them probed)`;
        }
      }
      await new Promise((resolve) => setTimeout(resolve, 1_000));
    }
  } finally {
    await pool.end();
  }
}

/** Top-10 of semantic search (the configured pgvector index) against an exact scan of every stored vector in the same database. */
async function recallAgainstExact(bridgeUrl: string, client: HttpClient, url: string, queries: number, size: number): Promise<Measurement> {
  const pool = createPool(url, 1);
  try {
    const recalls: number[] = [];
    const latencies: number[] = [];
    for (let q = 0; q < queries; q += 1) {
      const query = `${BENCH_QUERIES[q % BENCH_QUERIES.length]} ${['today', 'again'][Math.floor(q / BENCH_QUERIES.length) % 2]}`;
      const t0 = performance.now();
      const response = await client.request('POST', '/api/v1/query', JSON.stringify({ query, mode: 'semantic', limit: 10 }));
      latencies.push(performance.now() - t0);
      const approximate = (JSON.parse(response.body) as { results: Array<{ message_id: string }> }).results.map((hit) => hit.message_id);
      const embedded = await fetch(`${bridgeUrl}/embed`, {
        method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ texts: [query] }),
      });
      const vector = `[${((await embedded.json()) as { embeddings: number[][] }).embeddings[0]!.join(',')}]`;
      const exact = await pool.query<{ id: string }>(`SELECT m.id FROM message_vectors v JOIN messages m ON m.seq = v.message_seq
        ORDER BY (v.embedding <=> $1::vector) + 0 LIMIT 10`, [vector]);
      const truth = new Set(exact.rows.map((row) => row.id));
      recalls.push(approximate.filter((id) => truth.has(id)).length / 10);
    }
    const recall = recalls.reduce((a, b) => a + b, 0) / recalls.length;
    return {
      group: `at ${size}`, name: `semantic recall@10 vs exact scan (${queries} queries)`, concurrency: 1,
      ...summarize(latencies, 0, latencies.reduce((a, b) => a + b, 0)), error_samples: [], note: `recall@10 = ${round(recall, 3)}`,
    };
  } finally {
    await pool.end();
  }
}
