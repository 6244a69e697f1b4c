/**
 * Where context assembly's time goes: wall time of each step of recall (keyword, semantic, pinned, recent,
 * neighbours, hydrate) and of the selection after it, over the bench questions.
 *
 *   npx tsx scripts/context-split-probe.ts --data-dir <store> [--rounds 3]
 */
import { BENCH_QUERIES } from '../bench/lib/search-queries.js';
import { startService } from '../test/helpers/service-harness.js';
import { option } from './lib/probe-options.js';

const stack = await startService({ bridge: 'builtin', logger: { level: 'warn' }, dataDir: option('data-dir', ''),
  overrides: { rate_limit: { enabled: false } } });
const spent = new Map<string, number[]>();
const note = (name: string, ms: number) => { const list = spent.get(name) ?? []; list.push(ms); spent.set(name, list); };
type AnyFn = (...args: unknown[]) => unknown;
function wrap(owner: Record<string, unknown>, method: string, name: string): void {
  const original = (owner[method] as AnyFn).bind(owner);
  owner[method] = async (...args: unknown[]) => {
    const t = performance.now();
    try { return await original(...args); } finally { note(name, performance.now() - t); }
  };
}
try {
  await stack.waitForEmbeddings();
  const deps = (stack.controller.context as unknown as { deps: Record<string, Record<string, unknown>> }).deps;
  const searchDeps = (stack.controller.search as unknown as { deps: Record<string, Record<string, unknown>> }).deps;
  wrap(searchDeps.queries!, 'embedQuery', 'semantic: embed the query');
  wrap(searchDeps.vectors!, 'nearest', 'semantic: nearest');
  wrap(deps.rankings!, 'keywordRanking', 'keyword');
  wrap(deps.rankings!, 'semanticRanking', 'semantic');
  wrap(deps.reader!, 'pinnedMessageKeys', 'pinned');
  wrap(deps.reader!, 'recentMessageKeys', 'recent');
  wrap(deps.messages!, 'neighbours', 'neighbours');
  wrap(deps.messages!, 'hydrate', 'hydrate');
  const context = stack.controller.context;
  for (const q of BENCH_QUERIES.slice(0, 3)) await context.assemble({ query: q });
  spent.clear();
  const rounds = Number(option('rounds', '3'));
  for (let r = 0; r < rounds; r += 1) {
    for (const q of BENCH_QUERIES) {
      let t = performance.now();
      const request = context.toRequest({ query: q });
      const candidates = await context.recall(request);
      note('recall (all)', performance.now() - t);
      note('candidates', candidates.length);
      t = performance.now();
      await context.assemble({ query: q });
      note('assemble (all, again)', performance.now() - t);
    }
  }
  const pct = (values: number[], p: number) => [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor(p * values.length))]!;
  for (const [name, values] of spent) console.log(`${name.padEnd(24)} n=${values.length} p50 ${pct(values, 0.5).toFixed(2)} p95 ${pct(values, 0.95).toFixed(2)}`);
} finally {
  await stack.stop();
}
