/**
 * Latency of POST /api/v1/context/assemble over a large store.
 *
 *   npx tsx scripts/context-bench.ts [--messages 100000] [--queries 200]
 *
 * Starts the real bridge (builtin offline engine) and controller on ephemeral
 * ports with a temporary data directory, loads synthetic conversations of 100
 * messages through the API (random words from a fixed vocabulary, seeded, so
 * every run loads the same data; 2% pinned, 5% archived, timestamps over the
 * last year with some in the last 7 days), waits until every message is
 * embedded, then times assemble for both rankings at the default budget, with
 * and without excluded folders. Numbers depend on the machine and its load.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startService } from '../test/helpers/service-harness.js';

const VOCABULARY = (
  'database migration deadlock index query table schema backup restore server deploy release build test ' +
  'bug crash memory leak cache latency network timeout retry queue worker job cron log metric alert dashboard ' +
  'user account login password token session cookie browser mobile app screen button form layout design color ' +
  'font icon image video audio music song guitar piano concert ticket travel trip flight hotel beach mountain ' +
  'river lake forest park garden flower tree dog cat bird horse fish dinner lunch breakfast coffee tea bread ' +
  'cheese soup salad pizza pasta recipe kitchen oven family sister brother mother father friend neighbour ' +
  'school teacher student exam homework book novel poem story paint canvas museum gallery movie actor theatre ' +
  'doctor hospital health sleep exercise running swimming yoga football tennis basketball game team match ' +
  'money budget invoice salary bank loan rent house apartment car bike train bus weather rain snow summer winter ' +
  'spring autumn birthday wedding holiday gift party camping hiking volunteer charity adoption career interview'
).split(' ');
const LABELS = ['backend', 'frontend', 'ops', 'personal', 'travel', 'health', 'finance', 'family', 'hobby', 'reading'];

function parseArgs(argv: string[]) {
  const option = (name: string) => {
    const i = argv.indexOf(`--${name}`);
    return i >= 0 ? argv[i + 1] : undefined;
  };
  return { messages: Number(option('messages') ?? 100_000), queries: Number(option('queries') ?? 200) };
}

function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 2 ** 32;
  };
}

async function main(): Promise<void> {
  const args = parseArgs(process.argv.slice(2));
  const random = seededRandom(42);
  const pick = <T>(items: readonly T[]) => items[Math.floor(random() * items.length)]!;
  const words = (min: number, max: number) =>
    Array.from({ length: min + Math.floor(random() * (max - min + 1)) }, () => pick(VOCABULARY)).join(' ');
  const dataDir = mkdtempSync(join(tmpdir(), 'memsvc-context-bench-'));
  const stack = await startService({ bridge: 'builtin', logger: { level: 'warn' }, dataDir });
  try {
    const started = performance.now();
    const perConversation = 100;
    const conversations = Math.ceil(args.messages / perConversation);
    const now = Date.now();
    for (let c = 0; c < conversations; c += 1) {
      const newest = now - (random() < 0.1 ? random() * 7 : random() * 365) * 86_400_000;
      const messages = Array.from({ length: perConversation }, (_, i) => ({
        role: i % 2 === 0 ? 'user' : 'assistant',
        content: words(8, 30),
        timestamp: new Date(newest - (perConversation - i) * 60_000).toISOString(),
      }));
      const response = await stack.api('POST', '/api/v1/conversations', {
        label: pick(LABELS), folder: `/bench/team${c % 20}/project${c % 7}`, messages,
        importance_score: random() < 0.02 ? 10 : 1 + Math.floor(random() * 9),
      });
      if (response.status !== 201) throw new Error(`create failed: ${response.status}`);
      if (random() < 0.05) await stack.api('PUT', `/api/v1/conversations/${(response.body as { id: string }).id}/archive`);
    }
    const loaded = performance.now();
    await stack.waitForEmbeddings();
    const embedded = performance.now();
    console.log(`${conversations * perConversation} messages in ${conversations} conversations: ` +
      `loaded in ${((loaded - started) / 1000).toFixed(1)} s, embedded ${((embedded - loaded) / 1000).toFixed(1)} s later`);

    const cases = [
      { name: 'relevance (default)', body: {} },
      { name: 'spec', body: { ranking: 'spec' } },
      { name: 'relevance, 3 excluded folders', body: { excluded_folders: ['/bench/team1', '/bench/team2', '/bench/team3'] } },
      { name: 'relevance, text variant', body: { max_tokens: 4000 } },
    ];
    console.log(`\n${args.queries} queries each, budget 4000:\n`);
    console.log('| case | p50 ms | p95 ms | mean messages |');
    console.log('|---|---|---|---|');
    for (const { name, body } of cases) {
      const latencies: number[] = [];
      let messages = 0;
      for (let q = 0; q < args.queries; q += 1) {
        const query = words(3, 8);
        const t0 = performance.now();
        const response = await stack.api('POST', '/api/v1/context/assemble', { query, ...body });
        latencies.push(performance.now() - t0);
        if (response.status !== 200) throw new Error(`assemble failed: ${response.status} ${JSON.stringify(response.body)}`);
        const result = response.body as unknown[] | { message_count: number };
        messages += Array.isArray(result) ? result.length : result.message_count;
      }
      latencies.sort((a, b) => a - b);
      console.log(`| ${name} | ${pct(latencies, 0.5).toFixed(1)} | ${pct(latencies, 0.95).toFixed(1)} | ` +
        `${(messages / args.queries).toFixed(1)} |`);
    }
  } finally {
    await stack.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

const pct = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))] ?? 0;

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
