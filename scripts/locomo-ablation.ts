/**
 * Ablation of the retrieval components on LoCoMo: each one on and off, with
 * recall@5/10/20 of evidence turns per question category.
 *
 *   npx tsx scripts/locomo-ablation.ts /work/shared/datasets/locomo-dev.json [--choose 0,1,2] [--leave-one-out]
 *     [--authors prefix|name|none]
 *
 * Runs in process, without HTTP: per sample an FTS5 table built exactly as the
 * SQLite store builds it (same tokenizer, context column and bm25 weights),
 * plus one table over every sample searched per sample (store-wide term
 * statistics, as a folder-filtered search of one store without
 * search.scoped_statistics), the builtin embedder's vectors searched exactly,
 * and the same ranking functions the search service calls, in the same order.
 * The last column gives R@10 per sample, to check a gain holds on each. Protocol as
 * scripts/locomo-eval.ts: one conversation per session, the speaker stored as
 * --authors says (content "speaker: text" by default; see lib/locomo.ts), each
 * question searches its own sample, category 5 skipped.
 * --choose names the samples weights were chosen on; the table is then also
 * printed for the held-out rest. --leave-one-out chooses, for each sample, the
 * variant best on the other samples and reports that choice's R@10 on the
 * sample left out. The dataset is read from the given path, never copied.
 */
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import Database from 'better-sqlite3';
import type { ScoredKey } from '../src/domain/search.js';
import { loadWordVectors } from '../src/bridge/builtin/embedding/word-vector-cache.js';
import { createVectorComposer, DEFAULT_RECIPE, type VectorComposer } from '../src/bridge/builtin/embedding/vector-composer.js';
import {
  bm25Expression, FTS_CONTEXT_WEIGHT, FTS_TOKENIZER, ftsTableDdl, queryTerms, toContextColumn,
} from '../src/features/search/fts-query.js';
import { fuseRankings, KEYWORD_WEIGHT } from '../src/features/search/hybrid-fusion.js';
import { NEIGHBOUR_WEIGHT, propagateNeighbourScores } from '../src/features/search/neighbour-propagation.js';
import { passSessionEvidence, SESSION_WEIGHT } from '../src/ranking/session-evidence.js';
import { expansionTerms, FEEDBACK_HITS, rocchioQuery, ROCCHIO_BETA } from '../src/features/search/ranking/pseudo-relevance.js';
import { favourNamedAuthors, AUTHOR_WEIGHT, messageAuthor } from '../src/ranking/author-match.js';
import {
  authoredTurn, authorMode, evidenceIds, sessionKeys, sessionStart, type AuthorMode, type Sample, type Turn,
} from './lib/locomo.js';
import { favourNamedPeriods, TIME_WEIGHT } from '../src/ranking/time-mention.js';
import { namedPeriods } from '../src/ranking/period-parsing.js';
import { SHARED_MODEL_CACHE } from '../test/helpers/service-harness.js';

const KS = [5, 10, 20] as const;
const CATEGORIES = [1, 2, 3, 4] as const;
const CATEGORY_NAMES: Record<number, string> = { 1: 'multi-hop', 2: 'temporal', 3: 'open-domain', 4: 'single-hop' };
/** As the search service: each ranking contributes this many candidates. */
const DEPTH = 100;

export interface Components {
  neighbours: boolean;
  session: boolean;
  rocchio: boolean;
  rm3: boolean;
  author?: boolean;
  /** Messages written in a period the query names (search/ranking/time-mention.ts). */
  time?: boolean;
  /**
   * Full-text term statistics from the searched sample alone (search.scoped_statistics), rather than from
   * a store holding every sample, as the service's SQLite store ranks a folder-filtered search without it.
   */
  scoped?: boolean;
  timeWeight?: number;
  keywordWeight?: number;
  neighbourWeight?: number;
  authorWeight?: number;
  authorStage?: 'early' | 'late';
  sessionWeight?: number;
  rocchioBeta?: number;
  rm3Weight?: number;
  feedbackHits?: number;
}

export const DEFAULT_COMPONENTS: Components = {
  neighbours: true, author: true, time: true, scoped: true, session: false, rocchio: false, rm3: false,
};

export interface Message {
  key: number; dia: string; session: string; content: string; name: string | null; vector: Float32Array; timestamp: string;
}
export interface Question { text: string; category: number; evidence: Set<string> }
export interface Corpus {
  messages: Message[];
  neighbours: Map<number, number[]>;
  questions: Question[];
  /** BM25 with the sample's own term statistics. */
  fullText(terms: readonly string[], limit: number): ScoredKey[];
  /** BM25 with the statistics of a store holding every sample (set by loadCorpora; fullText until then). */
  storeWideFullText(terms: readonly string[], limit: number): ScoredKey[];
}

export function buildCorpus(sample: Sample, composer: VectorComposer, authors: AuthorMode = 'prefix'): Corpus {
  const messages: Message[] = [];
  for (const session of sessionKeys(sample)) {
    // As scripts/lib/locomo.ts stores them: turns a minute apart from the session's date.
    const start = sessionStart(sample.conversation[`${session}_date_time`] as string | undefined)?.getTime() ?? Number.NaN;
    (sample.conversation[session] as Turn[]).forEach((turn, i) => {
      const { content, name } = authoredTurn(turn, authors);
      const timestamp = Number.isNaN(start) ? '' : new Date(start + i * 60_000).toISOString();
      messages.push({
        key: messages.length, dia: turn.dia_id, session, content, name: name ?? null, vector: composer.compose(content), timestamp,
      });
    });
  }
  const neighbours = new Map<number, number[]>();
  messages.forEach((message, i) => neighbours.set(i, [messages[i - 1], messages[i + 1]]
    .filter((other) => other !== undefined && other.session === message.session).map((other) => other!.key)));
  const db = new Database(':memory:');
  db.exec(ftsTableDdl('m'));
  const insert = db.prepare('INSERT INTO m(rowid, content, context) VALUES (?, ?, ?)');
  for (const message of messages) {
    const [previous, next] = [messages[message.key - 1], messages[message.key + 1]]
      .map((other) => (other && other.session === message.session ? other.content : undefined));
    insert.run(message.key, message.content, toContextColumn(previous, next));
  }
  const select = db.prepare(`SELECT rowid AS key, -${bm25Expression('m')} AS score FROM m WHERE m MATCH ? ORDER BY ${bm25Expression('m')} LIMIT ?`);
  const questions = sample.qa.filter((qa) => qa.category !== 5)
    .map((qa) => ({ text: qa.question, category: qa.category, evidence: new Set(evidenceIds(qa.evidence)) }))
    .filter((question) => question.evidence.size > 0);
  const fullText = (terms: readonly string[], limit: number) => {
    if (terms.length === 0) return [];
    return scaleByBest(select.all(matchAny(terms), limit) as ScoredKey[]);
  };
  return { messages, neighbours, questions, fullText, storeWideFullText: fullText };
}

const matchAny = (terms: readonly string[]) => terms.map((term) => `"${term.replace(/"/g, '')}"`).join(' OR ');

/** One FTS5 table over every sample, searched per sample as a folder filter would: store-wide term statistics. */
function shareOneStore(corpora: readonly Corpus[]): void {
  const db = new Database(':memory:');
  db.exec(`CREATE VIRTUAL TABLE m USING fts5(content, context, sample UNINDEXED, tokenize = '${FTS_TOKENIZER}')`);
  const insert = db.prepare('INSERT INTO m(rowid, content, context, sample) VALUES (?, ?, ?, ?)');
  const stride = 1 + Math.max(...corpora.map((corpus) => corpus.messages.length));
  corpora.forEach((corpus, sample) => {
    for (const message of corpus.messages) {
      const [previous, next] = [corpus.messages[message.key - 1], corpus.messages[message.key + 1]]
        .map((other) => (other && other.session === message.session ? other.content : undefined));
      insert.run(sample * stride + message.key, message.content, toContextColumn(previous, next), sample);
    }
  });
  const bm25 = `bm25(m, 1.0, ${FTS_CONTEXT_WEIGHT}, 0)`;
  const select = db.prepare(`SELECT rowid AS key, -${bm25} AS score FROM m WHERE m MATCH ? AND sample = ? ORDER BY ${bm25} LIMIT ?`);
  corpora.forEach((corpus, sample) => {
    corpus.storeWideFullText = (terms, limit) => {
      if (terms.length === 0) return [];
      return scaleByBest((select.all(matchAny(terms), sample, limit) as ScoredKey[])
        .map((row) => ({ key: row.key - sample * stride, score: row.score })));
    };
  });
}

const scaleByBest = (ranking: ScoredKey[]) => {
  const best = ranking[0]?.score ?? 0;
  return ranking.map((item) => ({ key: item.key, score: best > 0 ? item.score / best : 0 }));
};

export function nearest(corpus: Corpus, query: Float32Array, k: number): ScoredKey[] {
  return corpus.messages.map((message) => {
    let dot = 0;
    for (let d = 0; d < query.length; d += 1) dot += query[d]! * message.vector[d]!;
    return { key: message.key, score: Math.max(0, dot) };
  }).sort((a, b) => b.score - a.score || a.key - b.key).slice(0, k);
}

const toRanked = (items: readonly ScoredKey[]) => items.map((item) => ({ id: String(item.key), score: item.score }));
const fromRanked = (items: ReadonlyArray<{ id: string; score: number }>) => items.map((item) => ({ key: Number(item.id), score: item.score }));
const fuse = (keyword: ScoredKey[], dense: ScoredKey[], keywordWeight = KEYWORD_WEIGHT) =>
  fromRanked(fuseRankings(toRanked(keyword), toRanked(dense), { keywordWeight, limit: DEPTH }));
const mix = (a: ScoredKey[], b: ScoredKey[], weightOfB: number) =>
  fromRanked(fuseRankings(toRanked(a), toRanked(b), { keywordWeight: 1 - weightOfB, limit: DEPTH }));

/** The search pipeline with the given components, as the search service runs it. */
export function retrieve(corpus: Corpus, composer: VectorComposer, question: string, on: Components): number[] {
  return retrieveScored(corpus, composer, question, on).map((item) => item.key);
}

export function retrieveScored(corpus: Corpus, composer: VectorComposer, question: string, on: Components): ScoredKey[] {
  const words = queryTerms(question);
  const queryVector = composer.compose(question);
  const fullText = on.scoped === false ? corpus.storeWideFullText : corpus.fullText;
  let keyword = fullText(words, DEPTH);
  let dense = nearest(corpus, queryVector, DEPTH);
  let ranking = fuse(keyword, dense, on.keywordWeight);
  const byAuthor = (r: ScoredKey[]) =>
    favourNamedAuthors(question, r, (key) => messageAuthor(corpus.messages[key]!), on.authorWeight ?? AUTHOR_WEIGHT);
  if (on.author && on.authorStage === 'early') ranking = byAuthor(ranking);
  const feedbackHits = on.feedbackHits ?? FEEDBACK_HITS;
  if (on.rocchio || on.rm3) {
    const feedback = ranking.slice(0, feedbackHits).map((item) => ({ message: corpus.messages[item.key]!, score: item.score }));
    if (on.rocchio) {
      const vector = rocchioQuery(queryVector, feedback.map((item) => ({ vector: item.message.vector, score: item.score })),
        on.rocchioBeta ?? ROCCHIO_BETA);
      dense = nearest(corpus, vector, DEPTH);
    }
    if (on.rm3) {
      const terms = expansionTerms(feedback.map((item) => ({ text: item.message.content, score: item.score })),
        ranking.map((item) => corpus.messages[item.key]!.content), words);
      keyword = mix(keyword, fullText(terms, DEPTH), on.rm3Weight ?? 0.15);
    }
    ranking = fuse(keyword, dense, on.keywordWeight);
    if (on.author && on.authorStage === 'early') ranking = byAuthor(ranking);
  }
  if (on.neighbours) {
    ranking = fromRanked(propagateNeighbourScores(toRanked(ranking), (id) => (corpus.neighbours.get(Number(id)) ?? []).map(String),
      on.neighbourWeight ?? NEIGHBOUR_WEIGHT)).slice(0, DEPTH);
  }
  if (on.author && on.authorStage !== 'early') ranking = byAuthor(ranking);
  if (on.time) {
    ranking = favourNamedPeriods(namedPeriods(question), ranking, (key) => corpus.messages[key]?.timestamp, on.timeWeight ?? TIME_WEIGHT);
  }
  if (on.session) {
    ranking = passSessionEvidence(ranking, (key) => corpus.messages[key]?.session, on.sessionWeight ?? SESSION_WEIGHT);
  }
  return ranking;
}

export interface Recall {
  byCategory: Map<number, number[]>;
  all: number[];
  count: number;
  /** R@10 per corpus (conversation sample), in input order. */
  perCorpus: number[];
}

export function measure(corpora: readonly Corpus[], composer: VectorComposer, on: Components): Recall {
  const sums = new Map<number, number[]>(CATEGORIES.map((c) => [c, KS.map(() => 0)]));
  const counts = new Map<number, number>(CATEGORIES.map((c) => [c, 0]));
  const all = KS.map(() => 0);
  let count = 0;
  const perCorpus: number[] = [];
  for (const corpus of corpora) {
    let corpusSum = 0;
    for (const question of corpus.questions) {
      const ranked = retrieve(corpus, composer, question.text, on).map((key) => corpus.messages[key]!.dia);
      KS.forEach((k, i) => {
        const top = new Set(ranked.slice(0, k));
        const share = [...question.evidence].filter((id) => top.has(id)).length / question.evidence.size;
        sums.get(question.category)![i]! += share;
        all[i]! += share;
        if (k === 10) corpusSum += share;
      });
      counts.set(question.category, counts.get(question.category)! + 1);
      count += 1;
    }
    perCorpus.push(corpusSum / Math.max(1, corpus.questions.length));
  }
  const byCategory = new Map([...sums].map(([c, values]) => [c, values.map((v) => v / Math.max(1, counts.get(c)!))]));
  return { byCategory, all: all.map((v) => v / Math.max(1, count)), count, perCorpus };
}

export async function loadCorpora(path: string, authors: AuthorMode = 'prefix') {
  const samples = JSON.parse(readFileSync(path, 'utf8')) as Sample[];
  const composer = createVectorComposer(await loadWordVectors({ cacheDir: SHARED_MODEL_CACHE }), DEFAULT_RECIPE);
  const corpora = samples.map((sample) => buildCorpus(sample, composer, authors));
  shareOneStore(corpora);
  return { composer, corpora, samples };
}

const BASE: Components = { neighbours: false, author: false, time: false, scoped: false, session: false, rocchio: false, rm3: false };
const VARIANTS: Array<[string, Components]> = [
  ['bm25+context and dense, fused (store-wide statistics)', BASE],
  ['+ neighbour propagation', { ...BASE, neighbours: true }],
  ['+ named author (the previous default)', { ...BASE, neighbours: true, author: true }],
  ['+ named periods', { ...BASE, neighbours: true, author: true, time: true }],
  ['+ scoped statistics (DEFAULT)', DEFAULT_COMPONENTS],
  ['default - scoped statistics', { ...DEFAULT_COMPONENTS, scoped: false }],
  ['default - named periods', { ...DEFAULT_COMPONENTS, time: false }],
  ['default - named author', { ...DEFAULT_COMPONENTS, author: false }],
  ['default - neighbour propagation', { ...DEFAULT_COMPONENTS, neighbours: false }],
  ['default + session evidence (search: off; context: on)', { ...DEFAULT_COMPONENTS, session: true }],
  ['default + Rocchio (dense feedback, not kept)', { ...DEFAULT_COMPONENTS, rocchio: true }],
  ['default + RM3 (keyword feedback, not kept)', { ...DEFAULT_COMPONENTS, rm3: true }],
];

function printTable(title: string, corpora: readonly Corpus[], composer: VectorComposer, variants: Array<[string, Components]>) {
  console.log(`\n${title}\n`);
  console.log(`| variant | all R@5/10/20 | ${CATEGORIES.map((c) => `${CATEGORY_NAMES[c]} R@5/10/20`).join(' | ')} | R@10 per conversation |`);
  console.log(`|---|---|${CATEGORIES.map(() => '---').join('|')}|---|`);
  for (const [name, on] of variants) {
    const recall = measure(corpora, composer, on);
    const cell = (values: number[]) => values.map((v) => v.toFixed(3)).join(' / ');
    console.log(`| ${name} | ${cell(recall.all)} | ${CATEGORIES.map((c) => cell(recall.byCategory.get(c)!)).join(' | ')} | ${cell(recall.perCorpus)} |`);
  }
}

/**
 * For each sample, the variant with the best R@10 on the other samples (pooled over their questions) and its R@10 on
 * the sample left out, beside the default's: whether choosing on some samples carries over to another.
 */
function printLeaveOneOut(corpora: readonly Corpus[], samples: readonly Sample[], composer: VectorComposer,
  variants: Array<[string, Components]>) {
  const sizes = corpora.map((corpus) => corpus.questions.length);
  const pooled = (perCorpus: readonly number[], among: readonly number[]) =>
    among.reduce((sum, i) => sum + perCorpus[i]! * sizes[i]!, 0) / Math.max(1, among.reduce((sum, i) => sum + sizes[i]!, 0));
  const measured = variants.map(([name, on]) => ({ name, perCorpus: measure(corpora, composer, on).perCorpus }));
  const byDefault = measure(corpora, composer, DEFAULT_COMPONENTS).perCorpus;
  console.log('\nLeave one out: chosen on the other samples by R@10, measured on the one left out\n');
  console.log('| held out | chosen variant | R@10 on the others | held-out R@10 | default\'s held-out R@10 |');
  console.log('|---|---|---|---|---|');
  const chosenHeldOut: number[] = [];
  corpora.forEach((_, heldOut) => {
    const others = corpora.map((__, i) => i).filter((i) => i !== heldOut);
    const best = measured.reduce((a, b) => (pooled(b.perCorpus, others) > pooled(a.perCorpus, others) ? b : a));
    chosenHeldOut.push(best.perCorpus[heldOut]!);
    console.log(`| ${samples[heldOut]!.sample_id} | ${best.name} | ${pooled(best.perCorpus, others).toFixed(3)} | ` +
      `${best.perCorpus[heldOut]!.toFixed(3)} | ${byDefault[heldOut]!.toFixed(3)} |`);
  });
  const all = corpora.map((_, i) => i);
  console.log(`| all, pooled | | | ${pooled(chosenHeldOut, all).toFixed(3)} | ${pooled(byDefault, all).toFixed(3)} |`);
}

async function main(): Promise<void> {
  const [dataPath, ...rest] = process.argv.slice(2);
  if (!dataPath) throw new Error('usage: locomo-ablation.ts <locomo-dev.json> [--choose 0,1,2] [--leave-one-out] [--authors prefix|name|none]');
  const option = (name: string) => (rest.includes(`--${name}`) ? rest[rest.indexOf(`--${name}`) + 1] : undefined);
  const chosen = option('choose')?.split(',').map(Number) ?? [];
  const authors = authorMode(option('authors'));
  const { composer, corpora, samples } = await loadCorpora(resolve(dataPath), authors);
  const questions = corpora.reduce((n, corpus) => n + corpus.questions.length, 0);
  printTable(`All ${samples.length} samples, ${questions} questions (category 5 skipped), authors: ${authors}`, corpora, composer, VARIANTS);
  if (chosen.length > 0) {
    const heldOut = corpora.filter((_, i) => !chosen.includes(i));
    printTable(`Held out (${samples.filter((_, i) => !chosen.includes(i)).map((s) => s.sample_id).join(', ')})`, heldOut, composer, VARIANTS);
  }
  if (rest.includes('--leave-one-out')) printLeaveOneOut(corpora, samples, composer, VARIANTS);
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) await main();
