/**
 * Context assembly on LoCoMo: which share of a question's evidence turns ends
 * up inside the assembled context, for the default (relevance) ranking and the
 * spec's formula, at budgets of 1000, 2000 and 4000 tokens.
 *
 *   npx tsx scripts/locomo-context-eval.ts ../shared/datasets/locomo-dev.json [--samples N] [--tune]
 *
 * Starts the real bridge (builtin offline engine) and controller on ephemeral
 * ports, loads every sample as scripts/locomo-eval.ts does (one conversation
 * per session in folder /locomo/<sample>, content "speaker: text", dia_id in
 * message metadata), waits for the embeddings, then asks every question
 * (category 5 skipped) through POST /api/v1/context/assemble with
 * preferred_labels [] and excluded_folders = every other sample's folder.
 * The clock stands one day after the sample's last session, so recency means
 * what it would for someone talking with the service the day after.
 * Score: |evidence turns in the context| / |evidence turns|, averaged over questions.
 *
 * --tune recalls once per question in process and grids the default ranking's
 * weights over the same metric (no HTTP), printing the best settings.
 * The dataset is read from the given path, never copied.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { Clock } from '../src/ports/clock.js';
import {
  DEFAULT_TUNING, rankCandidates, UNREFINED_TUNING, type ContextRanking, type RelevanceTuning,
} from '../src/features/context/context-ranking.js';
import { packRanked, type ContextCandidate } from '../src/features/context/context-selection.js';
import {
  folderOf, loadSample, questionsOf, sessionKeys, sessionStart, type Question, type Sample, type Turn,
} from './lib/locomo.js';
import { startService, type RunningService } from '../test/helpers/service-harness.js';


const BUDGETS = [1000, 2000, 4000] as const;
const RANKINGS: readonly ContextRanking[] = ['relevance', 'spec'];
const DAY_MS = 24 * 60 * 60 * 1000;

function parseArgs(argv: string[]) {
  const [dataPath, ...rest] = argv;
  if (!dataPath) throw new Error('usage: locomo-context-eval.ts <locomo-dev.json> [--samples N] [--tune]');
  const option = (name: string) => {
    const i = rest.indexOf(`--${name}`);
    return i >= 0 ? rest[i + 1] : undefined;
  };
  return { dataPath: resolve(dataPath), samples: Number(option('samples') ?? Infinity), tune: rest.includes('--tune') };
}

/** A clock the script moves: each sample is asked about the day after its last session. */
class SettableClock implements Clock {
  private current = Date.now();
  set(time: number): void { this.current = time; }
  now(): Date { return new Date(this.current); }
}


/** One day after the start of the sample's last dated session. */
function dayAfter(sample: Sample): number {
  let last = 0;
  for (const key of sessionKeys(sample)) {
    const start = sessionStart(sample.conversation[`${key}_date_time`] as string | undefined);
    if (start) last = Math.max(last, start.getTime() + (sample.conversation[key] as Turn[]).length * 60_000);
  }
  return (last || Date.now()) + DAY_MS;
}

const share = (evidence: Set<string>, ids: ReadonlyArray<string | undefined>) =>
  new Set(ids.filter((id) => id !== undefined && evidence.has(id))).size / evidence.size;

const diaIdOf = (metadata: Record<string, unknown> | null) =>
  typeof metadata?.dia_id === 'string' ? metadata.dia_id : undefined;

async function measure(stack: RunningService, clock: SettableClock, samples: readonly Sample[], questions: readonly Question[]) {
  const coverage: Record<string, number[]> = {};
  const latencies: Record<string, number[]> = {};
  for (const question of questions) {
    clock.set(dayAfter(question.sample));
    const excluded = samples.filter((other) => other !== question.sample).map(folderOf);
    for (const ranking of RANKINGS) {
      for (const budget of BUDGETS) {
        const started = performance.now();
        const response = await withRetry(() => stack.api('POST', '/api/v1/context/assemble', {
          query: question.text, preferred_labels: [], excluded_folders: excluded, context_budget: budget, ranking,
        }));
        (latencies[ranking] ??= []).push(performance.now() - started);
        if (response.status !== 200) throw new Error(`assemble failed: ${response.status} ${JSON.stringify(response.body)}`);
        const messages = response.body as Array<{ metadata: { folder: string; message_metadata: Record<string, unknown> | null } }>;
        if (messages.some((message) => message.metadata.folder !== folderOf(question.sample))) {
          throw new Error('a message from an excluded folder was assembled');
        }
        (coverage[`${ranking}@${budget}`] ??= []).push(share(question.evidence,
          messages.map((message) => diaIdOf(message.metadata.message_metadata))));
      }
    }
  }
  console.log(`\n${questions.length} questions (category 5 skipped); share of evidence turns inside the context:\n`);
  console.log(`| ranking | ${BUDGETS.map((b) => `budget ${b}`).join(' | ')} | assemble p50 ms | assemble p95 ms |`);
  console.log(`|---|${BUDGETS.map(() => '---').join('|')}|---|---|`);
  for (const ranking of RANKINGS) {
    const sorted = [...latencies[ranking]!].sort((a, b) => a - b);
    const cells = BUDGETS.map((budget) => mean(coverage[`${ranking}@${budget}`]!).toFixed(3));
    const label = ranking === 'relevance' ? 'relevance (default)' : 'spec (0.5 imp + 0.3 rec + 0.2 label)';
    console.log(`| ${label} | ${cells.join(' | ')} | ${pct(sorted, 0.5).toFixed(1)} | ${pct(sorted, 0.95).toFixed(1)} |`);
  }
}

const CATEGORY_NAMES: Record<number, string> = { 1: 'multi-hop', 2: 'temporal', 3: 'open-domain', 4: 'single-hop' };

/**
 * Each component of the default ranking off in turn, share at 2000 / 4000 tokens per question category and
 * per sample: a component stays only if it wins in every category (docs/search.md).
 */
function ablation(recalled: ReadonlyArray<{ question: Question; now: Date; candidates: ContextCandidate[] }>) {
  const variants: Array<[string, RelevanceTuning]> = [
    ['default', DEFAULT_TUNING],
    ['- author prior', { ...DEFAULT_TUNING, authorPrior: 0 }],
    ['- session evidence', { ...DEFAULT_TUNING, sessionWeight: 0 }],
    ['- named author (x1.5)', { ...DEFAULT_TUNING, authorWeight: 0 }],
    ['- named periods', { ...DEFAULT_TUNING, timeWeight: 0 }],
    ['- neighbours', { ...DEFAULT_TUNING, neighbourWeight: 0 }],
    ['before (session 0.6, no author prior)', { ...DEFAULT_TUNING, sessionWeight: 0.6, authorPrior: 0 }],
    ['context_refinement: false', UNREFINED_TUNING],
  ];
  const samples = [...new Set(recalled.map(({ question }) => question.sample.sample_id))];
  console.log('\nablation: share of evidence at 2000 / 4000 tokens\n');
  console.log(`| variant | all | ${Object.values(CATEGORY_NAMES).join(' | ')} | 4000 per sample (${samples.join(', ')}) |`);
  console.log(`|---|---|${Object.values(CATEGORY_NAMES).map(() => '---').join('|')}|---|`);
  for (const [name, tuning] of variants) {
    const groups = new Map<string, { n: number; at: [number, number] }>();
    const add = (group: string, at: [number, number]) => {
      const entry = groups.get(group) ?? { n: 0, at: [0, 0] };
      entry.n += 1;
      entry.at[0] += at[0];
      entry.at[1] += at[1];
      groups.set(group, entry);
    };
    for (const { question, now, candidates } of recalled) {
      const ranked = rankCandidates(candidates, 'relevance', { now, preferredLabels: [] }, tuning);
      const at = ([2000, 4000] as const).map((budget) => share(question.evidence,
        packRanked(ranked, { budget, format: 'messages', includeMetadata: true }).messages.map((m) => diaIdOf(m.hit.metadata)))) as [number, number];
      add('all', at);
      add(`category ${question.category}`, at);
      add(question.sample.sample_id, at);
    }
    const cell = (group: string, i?: 0 | 1) => {
      const entry = groups.get(group);
      if (!entry) return '-';
      const mean = (k: 0 | 1) => (entry.at[k] / entry.n).toFixed(3);
      return i === undefined ? `${mean(0)} / ${mean(1)}` : mean(i);
    };
    console.log(`| ${name} | ${cell('all')} | ${Object.keys(CATEGORY_NAMES).map((c) => cell(`category ${c}`)).join(' | ')} | ${samples.map((id) => cell(id, 1)).join(' / ')} |`);
  }
}

/** Grids the relevance ranking's weights over candidates recalled once per question. */
async function tune(stack: RunningService, clock: SettableClock, samples: readonly Sample[], questions: readonly Question[]) {
  const { context } = stack.controller;
  const recalled: Array<{ question: Question; now: Date; candidates: ContextCandidate[] }> = [];
  for (const question of questions) {
    clock.set(dayAfter(question.sample));
    const request = context.toRequest({
      query: question.text, excluded_folders: samples.filter((other) => other !== question.sample).map(folderOf),
    });
    recalled.push({ question, now: clock.now(), candidates: await context.recall(request) });
  }
  const score = (tuning: RelevanceTuning) => {
    const totals = BUDGETS.map(() => 0);
    for (const { question, now, candidates } of recalled) {
      const ranked = rankCandidates(candidates, 'relevance', { now, preferredLabels: [] }, tuning);
      BUDGETS.forEach((budget, i) => {
        const selection = packRanked(ranked, { budget, format: 'messages', includeMetadata: true });
        totals[i]! += share(question.evidence, selection.messages.map((message) => diaIdOf(message.hit.metadata)));
      });
    }
    return totals.map((total) => total / Math.max(1, recalled.length));
  };
  const results: Array<{ tuning: RelevanceTuning; cells: number[] }> = [];
  // Importance is the same for every LoCoMo message and no label is preferred, so only relevance,
  // recency and their mix matter here; importance and label keep their share of the rest.
  for (const keywordShare of [0.7, 0.8]) {
    for (const neighbourWeight of [0.15, 0.3]) {
      for (const recency of [0, 0.05]) {
        const tuning = { ...DEFAULT_TUNING, keywordShare, neighbourWeight, recency,
          relevance: 1 - recency - DEFAULT_TUNING.importance - DEFAULT_TUNING.label };
        results.push({ tuning, cells: score(tuning) });
      }
    }
  }
  results.sort((a, b) => sum(b.cells) - sum(a.cells));
  console.log('\nbest 15 settings (mean share of evidence in context at budgets 1000/2000/4000):');
  for (const { tuning, cells } of results.slice(0, 15)) {
    console.log(`  keywordShare ${tuning.keywordShare} neighbour ${tuning.neighbourWeight} recency ${tuning.recency} ` +
      `relevance ${tuning.relevance.toFixed(2)}: ${cells.map((c) => c.toFixed(3)).join(' / ')}`);
  }
  console.log(`default ${JSON.stringify(DEFAULT_TUNING)}: ${score(DEFAULT_TUNING).map((c) => c.toFixed(3)).join(' / ')}`);
  ablation(recalled);
  // The second stage shared with search (docs/search.md): named authors and session evidence, on and off.
  console.log('\nnamed-author weight x session weight (share at budgets 1000/2000/4000):');
  for (const authorWeight of [0, 0.25, 0.5, 1]) {
    for (const sessionWeight of [0, 0.15, 0.3, 0.6]) {
      const cells = score({ ...DEFAULT_TUNING, authorWeight, sessionWeight });
      console.log(`  author ${authorWeight} session ${sessionWeight}: ${cells.map((c) => c.toFixed(3)).join(' / ')}`);
    }
  }
  // The author prior (context-ranking.ts) against session evidence.
  console.log('\nauthor prior x session weight (share at budgets 1000/2000/4000):');
  for (const authorPrior of [0, 0.3, 0.5, 0.8, 1.2]) {
    for (const sessionWeight of [0.6, 1, 1.5]) {
      const cells = score({ ...DEFAULT_TUNING, authorPrior, sessionWeight });
      console.log(`  author prior ${authorPrior} session ${sessionWeight}: ${cells.map((c) => c.toFixed(3)).join(' / ')}`);
    }
  }
  // Named periods (search/ranking/time-mention.ts) against stronger session and neighbour evidence.
  console.log('\ntime weight x session weight x neighbour weight (share at budgets 1000/2000/4000):');
  for (const timeWeight of [0, 1]) {
    for (const sessionWeight of [0.6, 1, 1.5]) {
      for (const neighbourWeight of [0.3, 0.5]) {
        const cells = score({ ...DEFAULT_TUNING, timeWeight, sessionWeight, neighbourWeight });
        console.log(`  time ${timeWeight} session ${sessionWeight} neighbour ${neighbourWeight}: ${cells.map((c) => c.toFixed(3)).join(' / ')}`);
      }
    }
  }
}

async function main(): Promise<void> {
  const args = parseArgs(process.argv.slice(2));
  const samples = (JSON.parse(readFileSync(args.dataPath, 'utf8')) as Sample[]).slice(0, args.samples);
  const dataDir = mkdtempSync(join(tmpdir(), 'memsvc-locomo-context-'));
  const clock = new SettableClock();
  const stack = await startService({ bridge: 'builtin', logger: { level: 'warn' }, dataDir, clock });
  try {
    const loadStarted = performance.now();
    let turns = 0;
    for (const sample of samples) turns += await loadSample(stack, sample);
    await stack.waitForEmbeddings();
    console.log(`loaded ${samples.length} samples, ${turns} turns, embedded in ${((performance.now() - loadStarted) / 1000).toFixed(1)} s`);
    const questions = questionsOf(samples);
    if (args.tune) await tune(stack, clock, samples, questions);
    await measure(stack, clock, samples, questions);
  } finally {
    await stack.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

/** A keep-alive socket the server closed while the loop was busy (after --tune) fails once; ask again. */
async function withRetry<T>(call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (error) {
    if (!(error instanceof TypeError)) throw error;
    return call();
  }
}

const sum = (values: number[]) => values.reduce((total, v) => total + v, 0);
const mean = (values: number[]) => sum(values) / Math.max(1, values.length);
const pct = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))] ?? 0;

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
