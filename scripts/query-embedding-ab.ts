/**
 * Search questions embedded by the bridge or in the controller (search.query_embedding), over HTTP on a scale-bench
 * store, alternating (issue 16): for each of --rounds rounds of "bridge" then "auto", starts the controller as the
 * scale bench does (its own process, the bridge in another), waits until its index has caught up, and times
 * semantic, hybrid and context requests at concurrency 1 over the recall questions; prints p50 / p95 and the
 * controller's RSS and heap.
 *
 *   npx tsx scripts/query-embedding-ab.ts --data-dir <dir>/scale [--rounds 2] [--requests 200]
 */
import { join } from 'node:path';
import { startBenchBridge } from '../bench/lib/bridge.js';
import { createHttpClient } from '../bench/lib/http-client.js';
import { runLoad } from '../bench/lib/load.js';
import { recallQuestions } from '../bench/lib/search-queries.js';
import { startBenchServer } from '../bench/lib/server.js';
import { API_KEY, serverMemory } from '../bench/scale.bench.js';
import { option } from './lib/probe-options.js';

const root = option('data-dir', '');
const rounds = Number(option('rounds', '2'));
const requests = Number(option('requests', '200'));
const questions = recallQuestions(100);
const bridge = await startBenchBridge(join(root, 'bridge'), API_KEY);
try {
  for (let round = 0; round < rounds; round += 1) {
    for (const mode of ['bridge', 'auto']) {
      process.env.MEMSVC_SEARCH_QUERY_EMBEDDING = mode;
      const server = await startBenchServer({ mode: 'child', keepData: true, dataDir: join(root, 'store'), bridgeUrl: bridge.url, apiKey: API_KEY });
      const client = createHttpClient(server.baseUrl, server.apiKey, 4);
      try {
        for (;;) {
          const status = JSON.parse((await client.request('GET', '/api/v1/embeddings/status')).body) as { index_catch_up: { state: string } };
          if (status.index_catch_up.state === 'ready' || status.index_catch_up.state === 'failed') break;
          await new Promise((resolve) => setTimeout(resolve, 500));
        }
        // The first question starts the in-process embedder loading (auto); give it its moment.
        await client.request('POST', '/api/v1/query', JSON.stringify({ query: 'warm up', mode: 'semantic' }));
        await new Promise((resolve) => setTimeout(resolve, 3000));
        const row = async (name: string, path: string, body: (q: string) => object, count: number) => {
          const bodies = questions.map((q) => JSON.stringify(body(q)));
          const result = await runLoad({
            client, concurrency: 1, maxRequests: count, maxDurationMs: 120_000, warmupRequests: 10, expectStatus: 200,
            request: (i) => ({ method: 'POST', path, body: bodies[i % bodies.length]! }),
          });
          return `${name} ${result.p50_ms.toFixed(1)} / ${result.p95_ms.toFixed(1)}`;
        };
        const cells = [
          await row('semantic', '/api/v1/query', (q) => ({ query: q, mode: 'semantic', limit: 10 }), requests),
          await row('hybrid', '/api/v1/query', (q) => ({ query: q, limit: 10 }), requests),
          await row('context', '/api/v1/context/assemble', (q) => ({ query: q }), Math.ceil(requests / 2)),
        ];
        const memory = await server.exec(serverMemory, undefined);
        console.log(`round ${round + 1} ${mode.padEnd(6)}: ${cells.join(' · ')} ms (p50 / p95) · RSS ${(memory.rss / 2 ** 20).toFixed(0)} MiB, ` +
          `heap ${(memory.heap_used / 2 ** 20).toFixed(0)} MiB`);
      } finally {
        await server.close();
      }
    }
  }
} finally {
  await bridge.close();
}
