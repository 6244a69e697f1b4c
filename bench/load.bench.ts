/**
 * Overload: `--clients` closed-loop clients for `--seconds` each, on a
 * 60/20/15/5 get/create/query/fts mix. Reports goodput (2xx/s), the share shed
 * with a fast 503 + Retry-After, errors, client timeouts and p99 over every
 * answer. See docs/reliability.md ("Overload").
 */
import { createHttpClient } from './lib/http-client.js';
import { createRng } from './lib/prng.js';
import type { Measurement, Scenario, ScenarioContext } from './lib/scenario.js';
import { startBenchServer } from './lib/server.js';
import { round, summarize } from './lib/stats.js';

const WORDS = 'alpha bravo charlie delta echo foxtrot golf hotel india juliet kilo lima mike november oscar papa'.split(' ');

export const scenario: Scenario = {
  name: 'load',
  description: 'overload: closed-loop clients on a get/create/query/fts mix; goodput, shed share, p99, timeouts',
  options: {
    clients: { kind: 'numbers', description: 'client counts, one run each', default: [200, 500], quick: [20, 50] },
    seconds: { kind: 'number', description: 'seconds per run', default: 60, quick: 5 },
    'timeout-ms': { kind: 'number', description: 'client timeout per request', default: 10_000 },
    seed: { kind: 'number', description: 'conversations created before the runs', default: 500, quick: 50 },
    durability: { kind: 'string', description: 'storage.durability for the server: normal or full', default: 'normal' },
  },
  run,
};

async function run(context: ScenarioContext) {
  process.env.MEMSVC_RATE_LIMIT_ENABLED = 'false';
  process.env.MEMSVC_STORAGE_DURABILITY = context.string('durability');
  const measurements: Measurement[] = [];
  // Each client count gets its own server on a freshly seeded store: the creates of one run would otherwise
  // grow the store (and every query's matches) that the next run works on, and the runs would compare sizes.
  for (const clients of context.numbers('clients')) {
    const server = await startBenchServer({ mode: context.serverMode, keepData: context.keepData });
    try {
      measurements.push(await loadRun(context, server, clients));
    } finally {
      await server.close();
    }
  }
  const notes = [
    'Goodput counts 2xx answers per second; a 503 with Retry-After counts as graceful shedding, not an error.',
    'Each client count runs against its own server on a store seeded the same way.',
  ];
  return { dataset: { seed_conversations: context.number('seed') }, seeding: [], measurements, notes };
}

async function loadRun(context: ScenarioContext, server: { baseUrl: string; apiKey: string }, clients: number): Promise<Measurement> {
  const random = createRng(7);
  const rng = () => random.next();
  const text = () => Array.from({ length: 12 }, () => WORDS[Math.floor(rng() * WORDS.length)]).join(' ');
  const seeder = createHttpClient(server.baseUrl, server.apiKey, 8);
  const ids: string[] = [];
  for (let i = 0; i < context.number('seed'); i++) {
    const response = await seeder.request('POST', '/api/v1/conversations', JSON.stringify({
      label: `load ${i}`, messages: [{ role: 'user', content: text() }, { role: 'assistant', content: text() }] }));
    if (response.status === 201) ids.push(JSON.parse(response.body).id);
  }
  seeder.close();

  context.log(`load: ${clients} clients for ${context.number('seconds')} s`);
  const client = createHttpClient(server.baseUrl, server.apiKey, clients);
  const latencies: number[] = [];
  const byStatus = new Map<number, number>();
  let timeouts = 0;
  let errors = 0;
  let shedWithoutRetryAfter = 0;
  const deadline = performance.now() + context.number('seconds') * 1000;
  const timeoutMs = context.number('timeout-ms');
  const one = async () => {
    const pick = rng();
    const [method, path, body] = pick < 0.6 ? ['GET', `/api/v1/conversations/${ids[Math.floor(rng() * ids.length)]}`, undefined]
      : pick < 0.8 ? ['POST', '/api/v1/conversations', JSON.stringify({ label: 'load', messages: [{ role: 'user', content: text() }] })]
      : pick < 0.95 ? ['POST', '/api/v1/query', JSON.stringify({ query: text().split(' ').slice(0, 3).join(' '), limit: 10 })]
      : ['POST', '/api/v1/search/fts', JSON.stringify({ query: WORDS[Math.floor(rng() * WORDS.length)], limit: 10 })];
    const started = performance.now();
    let timer: NodeJS.Timeout | undefined;
    try {
      const response = await Promise.race([
        client.request(method!, path!, body),
        new Promise<null>((resolve) => { timer = setTimeout(() => resolve(null), timeoutMs); }),
      ]);
      if (!response) {
        timeouts++;
        return;
      }
      latencies.push(performance.now() - started);
      byStatus.set(response.status, (byStatus.get(response.status) ?? 0) + 1);
      if (response.status >= 500 && response.status !== 503) errors++;
      // A 503 is graceful only with Retry-After.
      if (response.status === 503 && response.retryAfter === undefined) shedWithoutRetryAfter++;
    } catch {
      errors++;
    } finally {
      clearTimeout(timer);
    }
  };
  const started = performance.now();
  await Promise.all(Array.from({ length: clients }, async () => {
    while (performance.now() < deadline) await one();
  }));
  const wallS = (performance.now() - started) / 1000;
  client.close();
  const total = latencies.length + timeouts;
  const ok = [...byStatus].filter(([status]) => status < 300).reduce((sum, [, count]) => sum + count, 0);
  const shed = byStatus.get(503) ?? 0;
  return {
    ...summarize(latencies, errors + timeouts, wallS * 1000),
    throughput_per_s: round(ok / wallS),
    concurrency: clients, error_samples: [],
    group: 'overload', name: `${clients} clients`,
    note: `goodput ${round(ok / wallS)}/s, shed ${round((100 * shed) / Math.max(1, total))}%, errors ${errors}, timeouts ${timeouts}` +
      `, 4xx ${[...byStatus].filter(([s]) => s >= 400 && s < 500).reduce((a, [, c]) => a + c, 0)}` +
      `${shedWithoutRetryAfter ? `, 503 without Retry-After ${shedWithoutRetryAfter}` : ''}, durability ${context.string('durability')}`,
  };
}
