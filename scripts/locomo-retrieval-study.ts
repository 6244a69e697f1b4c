/**
 * Offline retrieval study on LoCoMo: which mix of FTS5 bm25 and the builtin
 * embedder finds the evidence turns of a question best.
 *
 *   npx tsx scripts/locomo-retrieval-study.ts /work/shared/datasets/locomo-dev.json [cacheDir]
 *
 * Protocol: every turn is a message "<speaker>: <text>"; each LoCoMo session is
 * one conversation (so "neighbours" never cross sessions); each question
 * searches all messages of its own sample; recall@k = share of the question's
 * evidence turns in the top k, averaged over questions (category 5 skipped).
 * Malformed evidence is repaired where the intent is unambiguous: "D8:6; D9:17"
 * is split into two ids and "D:11:26" read as "D11:26"; ids still not in the
 * conversation ("D", "D10:19") stay in the denominator and count as missed.
 * Questions with no evidence at all (2 in conv-26) cannot be scored and are skipped.
 */
import { readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import Database from 'better-sqlite3';
import { loadWordVectors, type WordVectors } from '../src/bridge/builtin/embedding/word-vector-cache.js';
import { createVectorComposer, DEFAULT_RECIPE, type EmbeddingRecipe } from '../src/bridge/builtin/embedding/vector-composer.js';
import { bm25Expression, ftsTableDdl, toContextColumn, toMatchAnyQuery } from '../src/features/search/fts-query.js';
import { fuseRankings, KEYWORD_WEIGHT, type FusionOptions, type RankedHit } from '../src/features/search/hybrid-fusion.js';
import { NEIGHBOUR_WEIGHT, propagateNeighbourScores } from '../src/features/search/neighbour-propagation.js';

interface Turn { speaker: string; dia_id: string; text: string }
interface Sample { sample_id: string; conversation: Record<string, unknown>; qa: Array<{ question: string; evidence: string[]; category: number }> }
export interface Message { id: string; session: string; content: string }
export interface Question { text: string; evidence: string[] }
export interface Conversation { messages: Message[]; questions: Question[]; neighbours: Map<string, string[]> }
export type Retriever = (conversationIndex: number, question: string) => RankedHit[];

const KS = [5, 10, 20] as const;
/** Candidates taken from each ranking before fusion, as the search service would. */
const CANDIDATES = 50;

export function normalizeEvidence(raw: readonly string[]): string[] {
  const ids = new Set<string>();
  for (const entry of raw) {
    for (const part of entry.split(/[;,\s]+/)) {
      if (part === '') continue;
      const repaired = /^D:?(\d+):(\d+)$/.exec(part);
      ids.add(repaired ? `D${repaired[1]}:${repaired[2]}` : part);
    }
  }
  return [...ids];
}

export function loadConversations(path: string): Conversation[] {
  const samples = JSON.parse(readFileSync(path, 'utf8')) as Sample[];
  return samples.map((sample) => {
    const sessions = Object.keys(sample.conversation)
      .filter((key) => /^session_\d+$/.test(key))
      .sort((a, b) => Number(a.slice(8)) - Number(b.slice(8)));
    const messages = sessions.flatMap((session) =>
      (sample.conversation[session] as Turn[]).map((turn) => ({ id: turn.dia_id, session, content: `${turn.speaker}: ${turn.text}` })));
    const neighbours = new Map<string, string[]>();
    messages.forEach((message, i) => {
      const adjacent = [messages[i - 1], messages[i + 1]].filter((other) => other !== undefined && other.session === message.session);
      neighbours.set(message.id, adjacent.map((other) => other!.id));
    });
    const questions = sample.qa
      .filter((qa) => qa.category !== 5)
      .map((qa) => ({ text: qa.question, evidence: normalizeEvidence(qa.evidence) }))
      .filter((question) => question.evidence.length > 0);
    return { messages, questions, neighbours };
  });
}

export function recallAt(conversations: readonly Conversation[], retrieve: Retriever): number[] {
  const sums: number[] = KS.map(() => 0);
  let count = 0;
  conversations.forEach((conversation, c) => {
    for (const question of conversation.questions) {
      const ranked = retrieve(c, question.text).map((hit) => hit.id);
      KS.forEach((k, i) => {
        const top = new Set(ranked.slice(0, k));
        sums[i]! += question.evidence.filter((id) => top.has(id)).length / question.evidence.length;
      });
      count += 1;
    }
  });
  return sums.map((sum) => sum / count);
}

export function memo(retrieve: Retriever): Retriever {
  const cache = new Map<string, RankedHit[]>();
  return (c, question) => {
    const key = `${c}\u0000${question}`;
    let hits = cache.get(key);
    if (!hits) cache.set(key, (hits = retrieve(c, question)));
    return hits;
  };
}

/** FTS5 per conversation; `withContext` adds the neighbours' text as a down-weighted second column. */
export function buildFts(conversations: readonly Conversation[], tokenizer: string, withContext: boolean): Retriever {
  const statements = conversations.map((conversation) => {
    const db = new Database(':memory:');
    db.exec(ftsTableDdl('m').replace(/tokenize = '[^']*'/, `tokenize = '${tokenizer}'`));
    const insert = db.prepare('INSERT INTO m(rowid, content, context) VALUES (?, ?, ?)');
    const byId = new Map(conversation.messages.map((message) => [message.id, message.content]));
    conversation.messages.forEach((message, i) => {
      const [previous, next] = withContext ? neighbourContents(conversation, message, byId) : [undefined, undefined];
      insert.run(i, message.content, toContextColumn(previous, next));
    });
    return db.prepare(`SELECT rowid AS key, -${bm25Expression('m')} AS score FROM m WHERE m MATCH ? ORDER BY ${bm25Expression('m')} LIMIT ?`);
  });
  return memo((c, question) => {
    const match = toMatchAnyQuery(question);
    if (match === null) return [];
    const rows = statements[c]!.all(match, CANDIDATES) as Array<{ key: number; score: number }>;
    return rows.map((row) => ({ id: conversations[c]!.messages[row.key]!.id, score: row.score }));
  });
}

function neighbourContents(conversation: Conversation, message: Message, byId: Map<string, string>): [string | undefined, string | undefined] {
  const position = conversation.messages.indexOf(message);
  const content = (other: Message | undefined) => (other && other.session === message.session ? byId.get(other.id) : undefined);
  return [content(conversation.messages[position - 1]), content(conversation.messages[position + 1])];
}

/** Brute-force cosine over the conversation; `withContext` embeds each message together with its neighbours. */
export function buildDense(conversations: readonly Conversation[], wordVectors: WordVectors, recipe: EmbeddingRecipe, withContext = false): Retriever {
  const composer = createVectorComposer(wordVectors, recipe);
  const indexes = conversations.map((conversation) => {
    const byId = new Map(conversation.messages.map((message) => [message.id, message.content]));
    return conversation.messages.map((message) => {
      const context = withContext ? neighbourContents(conversation, message, byId).filter((text) => text !== undefined) : [];
      return { id: message.id, vector: composer.compose([message.content, ...context].join('\n')) };
    });
  });
  return memo((c, question) => {
    const query = composer.compose(question);
    const hits = indexes[c]!.map(({ id, vector }) => {
      let dot = 0;
      for (let d = 0; d < query.length; d += 1) dot += query[d]! * vector[d]!;
      return { id, score: dot };
    });
    return hits.sort((a, b) => b.score - a.score).slice(0, CANDIDATES);
  });
}

export function fused(keyword: Retriever, dense: Retriever, options: FusionOptions): Retriever {
  return memo((c, question) => fuseRankings(keyword(c, question), dense(c, question), options));
}

export function withNeighbours(conversations: readonly Conversation[], retrieve: Retriever, weight = NEIGHBOUR_WEIGHT): Retriever {
  return (c, question) => propagateNeighbourScores(retrieve(c, question), (id) => conversations[c]!.neighbours.get(id) ?? [], weight);
}

async function main(): Promise<void> {
  const datasetPath = process.argv[2];
  if (!datasetPath) throw new Error('usage: locomo-retrieval-study.ts <locomo-dev.json> [cacheDir]');
  const cacheDir = process.argv[3] ?? join(tmpdir(), 'memsvc-builtin-embedding-cache');
  const conversations = loadConversations(datasetPath);
  const started = performance.now();
  const wordVectors = await loadWordVectors({ cacheDir });
  console.log(`word vectors: ${wordVectors.size} x ${wordVectors.dimension} loaded in ${(performance.now() - started).toFixed(0)} ms (cache ${cacheDir})`);
  console.log(`questions: ${conversations.reduce((n, c) => n + c.questions.length, 0)}, messages: ${conversations.reduce((n, c) => n + c.messages.length, 0)}\n`);
  console.log(`| ${'variant'.padEnd(72)} | R@5   | R@10  | R@20  |\n|${'-'.repeat(74)}|-------|-------|-------|`);
  const report = (name: string, retrieve: Retriever): void =>
    console.log(`| ${name.padEnd(72)} | ${recallAt(conversations, retrieve).map((r) => r.toFixed(3)).join(' | ')} |`);

  const plain = buildFts(conversations, 'unicode61 remove_diacritics 2', false);
  const porter = buildFts(conversations, 'porter unicode61 remove_diacritics 2', false);
  const porterContext = buildFts(conversations, 'porter unicode61 remove_diacritics 2', true);
  report('BM25 unicode61', plain);
  report('BM25 porter', porter);
  report('BM25 porter + context column (neighbours, weight 0.5)', porterContext);

  const denseVariants: Array<[string, EmbeddingRecipe]> = [
    ['dense: GloVe SIF mean only (denseShare 1)', { ...DEFAULT_RECIPE, denseShare: 1 }],
    ['dense: hashed lexical only (denseShare 0)', { ...DEFAULT_RECIPE, denseShare: 0 }],
    ['dense: builtin + common-component removal', { ...DEFAULT_RECIPE, removeCommonComponent: true }],
    ['dense: builtin, stopwords in GloVe block', { ...DEFAULT_RECIPE, denseStopwords: true }],
    ['dense: builtin, sifA 1e-2', { ...DEFAULT_RECIPE, sifA: 1e-2 }],
    ['dense: builtin, denseShare 0.3', { ...DEFAULT_RECIPE, denseShare: 0.3 }],
    ['dense: builtin, denseShare 0.7', { ...DEFAULT_RECIPE, denseShare: 0.7 }],
    ['dense: builtin, no char n-grams', { ...DEFAULT_RECIPE, charNgramWeight: 0 }],
    ['dense: builtin, no bigrams', { ...DEFAULT_RECIPE, bigramWeight: 0 }],
  ];
  for (const [name, recipe] of denseVariants) report(name, buildDense(conversations, wordVectors, recipe));
  const dense = buildDense(conversations, wordVectors, DEFAULT_RECIPE);
  const denseContext = buildDense(conversations, wordVectors, DEFAULT_RECIPE, true);
  report('dense: builtin-hybrid-v1 (DEFAULT_RECIPE)', dense);
  report('dense: builtin-hybrid-v1, embedding text + neighbours', denseContext);

  report('hybrid: porter + dense, weighted-sum kw 0.5', fused(porter, dense, { method: 'weighted-sum', keywordWeight: 0.5 }));
  report('hybrid: porter + dense, weighted-sum kw 0.8', fused(porter, dense, { method: 'weighted-sum', keywordWeight: 0.8 }));
  report('hybrid: porter + dense, RRF k=60', fused(porter, dense, { method: 'rrf', keywordWeight: 0.5 }));
  report('hybrid: porter + dense(neighbour text), weighted-sum kw 0.8', fused(porter, denseContext, { method: 'weighted-sum', keywordWeight: 0.8 }));
  report('hybrid: porter + dense, kw 0.8, + neighbour propagation', withNeighbours(conversations, fused(porter, dense, { keywordWeight: 0.8 })));
  report('keyword only: porter+context column + neighbour propagation', withNeighbours(conversations, porterContext));
  report('hybrid: porter+context + dense, RRF k=60 + propagation', withNeighbours(conversations, fused(porterContext, dense, { method: 'rrf', keywordWeight: 0.5 })));
  report('hybrid: porter+context + dense, kw 0.8 (no propagation)', fused(porterContext, dense, { keywordWeight: 0.8 }));
  report(`CHOSEN: porter+context + dense, weighted-sum kw ${KEYWORD_WEIGHT} + propagation ${NEIGHBOUR_WEIGHT}`,
    withNeighbours(conversations, fused(porterContext, dense, { method: 'weighted-sum', keywordWeight: KEYWORD_WEIGHT })));

  console.log('\nsensitivity of the chosen recipe, R@10 (rows: keyword weight, columns: neighbour weight 0 / 0.15 / 0.3 / 0.5)');
  for (const keywordWeight of [0.6, 0.7, 0.8, 0.9, 1]) {
    const base = fused(porterContext, dense, { keywordWeight });
    const cells = [0, 0.15, 0.3, 0.5].map((weight) => recallAt(conversations, withNeighbours(conversations, base, weight))[1]!.toFixed(3));
    console.log(`kw ${keywordWeight.toFixed(1)}: ${cells.join('  ')}`);
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) await main();
