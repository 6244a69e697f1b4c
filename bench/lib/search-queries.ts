import { TOPICS } from './corpus.js';
import type { HttpClient } from './http-client.js';
import { runLoad } from './load.js';
import type { Measurement } from './scenario.js';

/** Natural-language questions over the generated corpus's topics, shared by the search benchmarks. */
export const BENCH_QUERIES: readonly string[] = [
  'database migration deadlock', 'how do I speed up slow queries', 'planning a trip to the mountains',
  'kubernetes deployment rollback', 'healthy breakfast ideas', 'unit tests are flaky', 'budget for next quarter',
  'garden tomatoes need water', 'learning to play the guitar', 'interview preparation tips', 'cache invalidation',
  'marathon training plan', 'tax return deadline', 'react component re-renders', 'team retrospective notes',
];

/**
 * `count` distinct questions for recall against exact search: BENCH_QUERIES, then deterministic 2-3 word
 * questions of the corpus's topic words ("stale cache retry"). Distinct questions, because recall over a few
 * questions asked several ways measures a few graph regions several times: one HNSW build differs from
 * another by up to 0.2 on 15 questions with 4 suffixes each.
 */
export function recallQuestions(count: number): string[] {
  const texts = BENCH_QUERIES.slice(0, count);
  for (let i = 0; texts.length < count; i += 1) {
    const topic = TOPICS[i % TOPICS.length]!;
    const pick = <T>(list: readonly T[], salt: number) => list[(i * 7919 + salt * 104_729) % list.length]!;
    texts.push(i % 2 === 0 ? `${pick(topic.adjectives, 1)} ${pick(topic.nouns, 2)}` : `${pick(topic.verbs, 3)} the ${pick(topic.nouns, 4)} ${pick(topic.nouns, 5)}`);
  }
  return texts;
}

/** One latency row per search mode and full-text form, each over BENCH_QUERIES at concurrency 1. */
export async function searchLatency(client: HttpClient, options: { requests: number; group: string; maxDurationMs: number; warmup: number }):
  Promise<Measurement[]> {
  const variants: Array<[string, string, (q: string) => object]> = [
    ['POST /query semantic (no filter)', '/api/v1/query', (q) => ({ query: q, mode: 'semantic', limit: 10 })],
    ['POST /query semantic, folder filter', '/api/v1/query', (q) => ({ query: q, mode: 'semantic', limit: 10, filters: { folder: '/work' } })],
    ['POST /query hybrid (default)', '/api/v1/query', (q) => ({ query: q, limit: 10 })],
    ['POST /query hybrid, folder filter', '/api/v1/query', (q) => ({ query: q, limit: 10, filters: { folder: '/work' } })],
    ['POST /context/assemble (default)', '/api/v1/context/assemble', (q) => ({ query: q })],
    ['POST /query keyword', '/api/v1/query', (q) => ({ query: q, mode: 'keyword', limit: 10 })],
    ['POST /search/fts (words)', '/api/v1/search/fts', (q) => ({ query: q.split(' ').slice(0, 2).join(' OR ') })],
    ['POST /search/fts (phrase)', '/api/v1/search/fts', (q) => ({ query: `"${q.split(' ').slice(0, 2).join(' ')}"` })],
  ];
  const rows: Measurement[] = [];
  for (const [name, path, body] of variants) {
    const bodies = BENCH_QUERIES.map((q) => JSON.stringify(body(q)));
    const result = await runLoad({
      client, concurrency: 1, maxRequests: options.requests, maxDurationMs: options.maxDurationMs,
      warmupRequests: options.warmup, expectStatus: 200,
      request: (i) => ({ method: 'POST', path, body: bodies[i % bodies.length]! }),
    });
    rows.push({ group: options.group, name, ...result });
  }
  return rows;
}
