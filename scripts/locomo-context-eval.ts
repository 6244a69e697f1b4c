/**
 * Context assembly on LoCoMo: which share of a question's evidence turns ends
 * up inside the assembled context, for the default (relevance) ranking and the
 * spec's formula, at budgets of 1000, 2000 and 4000 tokens; for the relevance
 * ranking also in the text form (what the memory_assemble_context tool and the
 * framework integrations get), and per sample.
 *
 *   npx tsx scripts/locomo-context-eval.ts ../shared/datasets/locomo-dev.json [--samples N] [--tune] [--leave-one-out]
 *     [--authors prefix|name|none]
 *
 * Starts the real bridge (builtin offline engine) and controller on ephemeral
 * ports, loads every sample as scripts/locomo-eval.ts does (one conversation
 * per session in folder /locomo/<sample>, the speaker as --authors says: content
 * "speaker: text" by default, dia_id in message metadata), waits for the embeddings, then asks every question
 * (category 5 skipped) through POST /api/v1/context/assemble with
 * preferred_labels [] and excluded_folders = every other sample's folder.
 * The clock stands one day after the sample's last session, so recency means
 * what it would for someone talking with the service the day after.
 * Score: |evidence turns in the context| / |evidence turns|, averaged over questions.
 *
 * --tune recalls once per question in process and grids the default ranking's
 * weights over the same metric (no HTTP), printing the best settings.
 * --leave-one-out recalls the same way and, for each sample in turn, picks the
 * setting of the LOO_GRID that does best on the other samples (mean share at
 * 2000 and 4000 tokens) and prints its share on the held-out sample against
 * the default's: a weight is worth changing only if the held-out samples agree.
 * The dataset is read from the given path, never copied.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { Clock } from '../src/ports/clock.js';
import {
  DEFAULT_TUNING, rankCandidates, UNREFINED_TUNING, type RelevanceTuning,
} from '../src/features/context/context-ranking.js';
import { packRanked, type ContextCandidate } from '../src/features/context/context-selection.js';
import {
  authorMode, folderOf, loadSample, questionsOf, sessionKeys, sessionStart, type Question, type Sample, type Turn,
} from './lib/locomo.js';
import { startService, type RunningService } from '../test/helpers/service-harness.js';


const BUDGETS = [1000, 2000, 4000] as const;
const DAY_MS = 24 * 60 * 60 * 1000;

function parseArgs(argv: string[]) {
  const [dataPath, ...rest] = argv;
  if (!dataPath) {
    throw new Error('usage: locomo-context-eval.ts <locomo-dev.json> [--samples N] [--tune] [--leave-one-out] [--authors prefix|name|none]');
  }
  const option = (name: string) => {
    const i = rest.indexOf(`--${name}`);
    return i >= 0 ? rest[i + 1] : undefined;
  };
  return {
    dataPath: resolve(dataPath), samples: Number(option('samples') ?? Infinity), tune: rest.includes('--tune'),
    leaveOneOut: rest.includes('--leave-one-out'), authors: authorMode(option('authors')),
  };
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

/** The message id -> dia_id of every loaded turn, read back through the API (the text form cites message ids). */
async function diaIds(stack: RunningService, samples: readonly Sample[]): Promise<Map<string, string>> {
  const ids = new Map<string, string>();
  for (const sample of samples) {
    const list = await withRetry(() => stack.api('GET', `/api/v1/conversations?folder=${encodeURIComponent(folderOf(sample))}&page_size=1000`));
    for (const { conversation_id: id } of list.body.results as Array<{ conversation_id: string }>) {
      const messages = await withRetry(() => stack.api('GET', `/api/v1/conversations/${id}/messages?page_size=1000`));
      for (const message of messages.body.results as Array<{ id: string; metadata: Record<string, unknown> | null }>) {
        const dia = diaIdOf(message.metadata);
        if (dia) ids.set(message.id, dia);
      }
    }
  }
  return ids;
}

/** What is measured through the API: each ranking in the messages form, and the default in the text form. */
const VARIANTS = [
  { name: 'relevance (default)', ranking: 'relevance', format: 'messages' },
  { name: 'relevance, text form', ranking: 'relevance', format: 'text' },
  { name: 'spec (0.5 imp + 0.3 rec + 0.2 label)', ranking: 'spec', format: 'messages' },
] as const;

async function measure(stack: RunningService, clock: SettableClock, samples: readonly Sample[], questions: readonly Question[]) {
  const dia = await diaIds(stack, samples);
  const coverage: Record<string, number[]> = {};
  const latencies: Record<string, number[]> = {};
  const add = (key: string, value: number) => (coverage[key] ??= []).push(value);
  for (const question of questions) {
    clock.set(dayAfter(question.sample));
    const excluded = samples.filter((other) => other !== question.sample).map(folderOf);
    for (const variant of VARIANTS) {
      for (const budget of BUDGETS) {
        const started = performance.now();
        const response = await withRetry(() => stack.api('POST', '/api/v1/context/assemble', {
          query: question.text, preferred_labels: [], excluded_folders: excluded, context_budget: budget,
          ranking: variant.ranking, format: variant.format,
        }));
        (latencies[variant.name] ??= []).push(performance.now() - started);
        if (response.status !== 200) throw new Error(`assemble failed: ${response.status} ${JSON.stringify(response.body)}`);
        let folders: string[];
        let turns: Array<string | undefined>;
        if (variant.format === 'text') {
          const sources = (response.body as { sources: Array<{ message_id: string; folder: string }> }).sources;
          folders = sources.map((source) => source.folder);
          turns = sources.map((source) => dia.get(source.message_id));
        } else {
          const messages = response.body as Array<{ metadata: { folder: string; message_metadata: Record<string, unknown> | null } }>;
          folders = messages.map((message) => message.metadata.folder);
          turns = messages.map((message) => diaIdOf(message.metadata.message_metadata));
        }
        if (folders.some((folder) => folder !== folderOf(question.sample))) throw new Error('a message from an excluded folder was assembled');
        const got = share(question.evidence, turns);
        add(`${variant.name}@${budget}`, got);
        add(`${variant.name}@${budget}@${question.sample.sample_id}`, got);
      }
    }
  }
  console.log(`\n${questions.length} questions (category 5 skipped); share of evidence turns inside the context:\n`);
  console.log(`| ranking | ${BUDGETS.map((b) => `budget ${b}`).join(' | ')} | assemble p50 ms | assemble p95 ms |`);
  console.log(`|---|${BUDGETS.map(() => '---').join('|')}|---|---|`);
  for (const variant of VARIANTS) {
    const sorted = [...latencies[variant.name]!].sort((a, b) => a - b);
    const cells = BUDGETS.map((budget) => mean(coverage[`${variant.name}@${budget}`]!).toFixed(3));
    console.log(`| ${variant.name} | ${cells.join(' | ')} | ${pct(sorted, 0.5).toFixed(1)} | ${pct(sorted, 0.95).toFixed(1)} |`);
  }
  const ids = samples.map((sample) => sample.sample_id);
  console.log(`\nper sample, share at budgets ${BUDGETS.join(' / ')}:\n`);
  console.log(`| variant | ${ids.map((id) => `${id} (${questions.filter((q) => q.sample.sample_id === id).length})`).join(' | ')} |`);
  console.log(`|---|${ids.map(() => '---').join('|')}|`);
  for (const variant of VARIANTS.filter((v) => v.ranking === 'relevance')) {
    const cells = ids.map((id) => BUDGETS.map((budget) => mean(coverage[`${variant.name}@${budget}@${id}`] ?? []).toFixed(3)).join(' / '));
    console.log(`| ${variant.name} | ${cells.join(' | ')} |`);
  }
}

const CATEGORY_NAMES: Record<number, string> = { 1: 'multi-hop', 2: 'temporal', 3: 'open-domain', 4: 'single-hop' };

/**
 * Each component of the default ranking off in turn, share at 2000 / 4000 tokens per question category and
 * per sample: a component stays only if it wins in every category (docs/search.md).
 */
function ablation(recalled: readonly Recalled[]) {
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

type Recalled = { question: Question; now: Date; candidates: ContextCandidate[] };

/** The candidates of every question, recalled once in process (the ranking and packing are then pure). */
async function recallAll(stack: RunningService, clock: SettableClock, samples: readonly Sample[], questions: readonly Question[]) {
  const { context } = stack.controller;
  const recalled: Recalled[] = [];
  for (const question of questions) {
    clock.set(dayAfter(question.sample));
    const request = context.toRequest({
      query: question.text, excluded_folders: samples.filter((other) => other !== question.sample).map(folderOf),
    });
    recalled.push({ question, now: clock.now(), candidates: await context.recall(request) });
  }
  return recalled;
}

/** Share of each question's evidence packed at each budget, in the messages form. */
function shares(recalled: readonly Recalled[], tuning: RelevanceTuning, budgets: readonly number[] = BUDGETS): number[][] {
  return recalled.map(({ question, now, candidates }) => {
    const ranked = rankCandidates(candidates, 'relevance', { now, preferredLabels: [] }, tuning);
    return budgets.map((budget) => share(question.evidence,
      packRanked(ranked, { budget, format: 'messages', includeMetadata: true }).messages.map((message) => diaIdOf(message.hit.metadata))));
  });
}

/**
 * The settings --leave-one-out chooses from: the weights that matter on LoCoMo (importance and labels are
 * constant there), each a step either side of the default.
 */
const LOO_GRID: Readonly<Record<string, readonly number[]>> = {
  keywordShare: [0.6, 0.7, 0.8],
  neighbourWeight: [0.15, 0.3, 0.45],
  sessionWeight: [0.6, 1, 1.5],
  authorPrior: [0.5, 0.8, 1.2],
  recency: [0, 0.05],
};

function gridSettings(): RelevanceTuning[] {
  let settings: RelevanceTuning[] = [{ ...DEFAULT_TUNING }];
  for (const [name, values] of Object.entries(LOO_GRID)) {
    settings = settings.flatMap((setting) => values.map((value) => ({ ...setting, [name]: value })));
  }
  // Recency takes its weight from query relevance, so the weights still sum to 1.
  return settings.map((setting) => ({
    ...setting, relevance: 1 - setting.recency - DEFAULT_TUNING.importance - DEFAULT_TUNING.label,
  }));
}

/**
 * For each sample: the grid setting with the best mean share at 2000 and 4000 tokens on the other samples,
 * and its share on the held-out one against the default's.
 */
function leaveOneOut(recalled: readonly Recalled[]) {
  const budgets = [2000, 4000];
  const settings = gridSettings();
  const started = performance.now();
  const perSetting = settings.map((tuning) => shares(recalled, tuning, budgets));
  const byDefault = shares(recalled, DEFAULT_TUNING, budgets);
  const samples = [...new Set(recalled.map(({ question }) => question.sample.sample_id))];
  const meanOf = (rows: number[][], keep: (i: number) => boolean) => budgets.map((_, b) => {
    let total = 0;
    let n = 0;
    rows.forEach((row, i) => { if (keep(i)) { total += row[b]!; n += 1; } });
    return total / Math.max(1, n);
  });
  const changed = (tuning: RelevanceTuning) => Object.keys(LOO_GRID)
    .filter((name) => tuning[name as keyof RelevanceTuning] !== DEFAULT_TUNING[name as keyof RelevanceTuning])
    .map((name) => `${name} ${tuning[name as keyof RelevanceTuning]}`).join(', ') || 'the default';
  console.log(`\nleave one sample out: ${settings.length} settings (${Object.entries(LOO_GRID)
    .map(([name, values]) => `${name} ${values.join('/')}`).join('; ')}), ${((performance.now() - started) / 1000).toFixed(0)} s\n`);
  console.log('| held out | chosen on the other samples | its share at 2000 / 4000 there | held out: chosen 2000 / 4000 | held out: default 2000 / 4000 |');
  console.log('|---|---|---|---|---|');
  const totals = { chosen: [0, 0], default: [0, 0], n: 0 };
  for (const held of samples) {
    const isHeld = (i: number) => recalled[i]!.question.sample.sample_id === held;
    let best = 0;
    let bestTrain = [-1, -1];
    perSetting.forEach((rows, s) => {
      const train = meanOf(rows, (i) => !isHeld(i));
      if (sum(train) > sum(bestTrain) + 1e-12) { best = s; bestTrain = train; }
    });
    const chosen = meanOf(perSetting[best]!, isHeld);
    const reference = meanOf(byDefault, isHeld);
    const n = recalled.filter((_, i) => isHeld(i)).length;
    budgets.forEach((_, b) => { totals.chosen[b]! += chosen[b]! * n; totals.default[b]! += reference[b]! * n; });
    totals.n += n;
    const cells = (values: number[]) => values.map((v) => v.toFixed(3)).join(' / ');
    console.log(`| ${held} | ${changed(settings[best]!)} | ${cells(bestTrain)} | ${cells(chosen)} | ${cells(reference)} |`);
  }
  const overall = (values: number[]) => values.map((v) => (v / Math.max(1, totals.n)).toFixed(3)).join(' / ');
  console.log(`| all (question-weighted) | | | ${overall(totals.chosen)} | ${overall(totals.default)} |`);
}

/** Grids the relevance ranking's weights over candidates recalled once per question. */
function tune(recalled: readonly Recalled[]) {
  const score = (tuning: RelevanceTuning) => {
    const rows = shares(recalled, tuning);
    return BUDGETS.map((_, i) => sum(rows.map((row) => row[i]!)) / Math.max(1, rows.length));
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
    for (const sample of samples) turns += await loadSample(stack, sample, args.authors);
    await stack.waitForEmbeddings();
    console.log(`loaded ${samples.length} samples, ${turns} turns, embedded in ${((performance.now() - loadStarted) / 1000).toFixed(1)} s`);
    const questions = questionsOf(samples);
    if (args.tune || args.leaveOneOut) {
      const recalled = await recallAll(stack, clock, samples, questions);
      if (args.tune) tune(recalled);
      if (args.leaveOneOut) leaveOneOut(recalled);
    }
    await measure(stack, clock, samples, questions);
  } finally {
    await stack.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

/** A keep-alive socket the server closed while the loop was busy (after --tune or --leave-one-out) fails once; ask again. */
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
