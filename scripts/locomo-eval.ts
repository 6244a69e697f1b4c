/**
 * Retrieval quality on LoCoMo, measured through the public HTTP API.
 *
 *   npx tsx scripts/locomo-eval.ts ../shared/datasets/locomo-dev.json [--modes hybrid,semantic,keyword] [--samples 5]
 *     [--authors prefix|name|none] [--driver postgres [--url postgres://…/admin-db]]
 *
 * Starts the real bridge (builtin offline engine) and controller on ephemeral
 * ports with a temporary data directory, loads every sample through
 * POST /api/v1/conversations (one conversation per session, the speaker as
 * --authors says: content "speaker: text" (prefix, the default), the bare text
 * with the speaker as the message's name (name), or the bare text alone (none);
 * the turn's dia_id in message metadata), waits until every message is
 * embedded, then asks each question (category 5 skipped) with the sample's
 * folder as filter and reports recall@5/10/20 of evidence turns, and R@10 per sample.
 * The dataset is read from the given path, never copied.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { startService, type RunningService } from '../test/helpers/service-harness.js';
import { authorMode, folderOf, loadSample, questionsOf, type Sample } from './lib/locomo.js';
import { startPgliteServer } from './lib/pglite-server.js';
import { freshDatabase } from './lib/postgres-database.js';
import { toMatchAnyQuery } from '../src/features/search/fts-query.js';


const KS = [5, 10, 20] as const;

function parseArgs(argv: string[]) {
  const [dataPath, ...rest] = argv;
  if (!dataPath) {
    throw new Error('usage: locomo-eval.ts <locomo-dev.json> [--modes hybrid,semantic,keyword] [--samples N] [--authors prefix|name|none] ' +
      '[--driver sqlite|postgres] [--url postgres://…]');
  }
  const option = (name: string) => {
    const i = rest.indexOf(`--${name}`);
    return i >= 0 ? rest[i + 1] : undefined;
  };
  return {
    dataPath: resolve(dataPath),
    modes: (option('modes') ?? 'hybrid,semantic,keyword,bm25').split(','),
    samples: Number(option('samples') ?? Infinity),
    authors: authorMode(option('authors')),
    driver: option('driver') ?? 'sqlite',
    /** postgres: a real server (a fresh database is made there and dropped after); PGlite when absent. */
    url: option('url'),
  };
}

async function main(): Promise<void> {
  const args = parseArgs(process.argv.slice(2));
  const samples = (JSON.parse(readFileSync(args.dataPath, 'utf8')) as Sample[]).slice(0, args.samples);
  const dataDir = mkdtempSync(join(tmpdir(), 'memsvc-locomo-'));
  // --driver postgres: the same run on the postgres driver, on a real server (--url) or in PGlite (single-threaded WASM).
  const pg = args.driver !== 'postgres' ? null : args.url ? await freshDatabase(args.url, 'memsvc_locomo') : await startPgliteServer();
  const stack = await startService({ bridge: 'builtin', logger: { level: 'warn' }, dataDir, ...(pg ? { overrides: { storage: { driver: 'postgres', url: pg.url } } } : {}) });
  try {
    const loadStarted = performance.now();
    let turns = 0;
    for (const sample of samples) turns += await loadSample(stack, sample, args.authors);
    await stack.waitForEmbeddings();
    const loadSeconds = (performance.now() - loadStarted) / 1000;
    console.log(`loaded ${samples.length} samples, ${turns} turns (authors: ${args.authors}), embedded in ${loadSeconds.toFixed(1)} s`);

    const recall: Record<string, Record<number, number[]>> = {};
    /** R@10 of each question, by mode and sample. */
    const bySample: Record<string, Record<string, number[]>> = {};
    const latencies: Record<string, number[]> = {};
    const questions = questionsOf(samples);
    for (const { sample, text, evidence } of questions) {
      for (const mode of args.modes) {
        const started = performance.now();
        const ids = await ask(stack, mode, text, folderOf(sample));
        (latencies[mode] ??= []).push(performance.now() - started);
        for (const k of KS) {
          const found = ids.slice(0, k).filter((id) => id !== undefined && evidence.has(id));
          const share = new Set(found).size / evidence.size;
          ((recall[mode] ??= {})[k] ??= []).push(share);
          if (k === 10) ((bySample[mode] ??= {})[sample.sample_id] ??= []).push(share);
        }
      }
    }

    const ids = samples.map((sample) => sample.sample_id);
    console.log(`\n${questions.length} questions (category 5 skipped), recall of evidence turns:\n`);
    console.log(`| mode | recall@5 | recall@10 | recall@20 | query p50 ms | query p95 ms | R@10 ${ids.join(' / ')} |`);
    console.log('|---|---|---|---|---|---|---|');
    for (const mode of args.modes) {
      const cells = KS.map((k) => mean(recall[mode]![k]!).toFixed(3));
      const sorted = [...latencies[mode]!].sort((a, b) => a - b);
      const label = MODE_LABELS[mode] ?? mode;
      const perSample = ids.map((id) => mean(bySample[mode]?.[id] ?? []).toFixed(3)).join(' / ');
      console.log(`| ${label} | ${cells.join(' | ')} | ${pct(sorted, 0.5).toFixed(1)} | ${pct(sorted, 0.95).toFixed(1)} | ${perSample} |`);
    }
  } finally {
    await stack.stop();
    await pg?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

const MODE_LABELS: Record<string, string> = {
  hybrid: 'hybrid (default)',
  semantic: 'semantic (vectors only)',
  keyword: 'keyword (BM25 with neighbour context)',
  bm25: 'BM25 baseline (FTS5 porter, message words only)',
};

/** The dia_ids of the top 20 hits. `bm25` is the baseline: plain full-text search over each turn's own words. */
async function ask(stack: RunningService, mode: string, question: string, folder: string): Promise<Array<string | undefined>> {
  if (mode === 'bm25') {
    const match = toMatchAnyQuery(question);
    if (match === null) return [];
    const response = await stack.api('POST', '/api/v1/search/fts', { query: match, limit: 20, filters: { folder } });
    if (response.status !== 200) throw new Error(`fts failed: ${response.status} ${JSON.stringify(response.body)}`);
    return (response.body as { results: Array<{ metadata: { dia_id?: string } | null }> }).results
      .map((hit) => hit.metadata?.dia_id);
  }
  const response = await stack.api('POST', '/api/v1/query', { query: question, limit: 20, mode, filters: { folder } });
  if (response.status !== 200) throw new Error(`query failed: ${response.status} ${JSON.stringify(response.body)}`);
  return (response.body as { results: Array<{ metadata: { message_metadata: { dia_id?: string } | null } }> })
    .results.map((hit) => hit.metadata.message_metadata?.dia_id);
}

const mean = (values: number[]) => values.reduce((sum, v) => sum + v, 0) / Math.max(1, values.length);
const pct = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))] ?? 0;

if (import.meta.url === `file://${process.argv[1]}` || process.argv[1]?.endsWith('locomo-eval.ts')) {
  main().catch((error: unknown) => {
    console.error(error);
    process.exit(1);
  });
}
