/**
 * Which full-text candidates pay for themselves in a semantic search, on a real store (issue 16): starts the
 * service in process on --data-dir (a scale-bench store, e.g. <dir>/scale/store), finds the exact top 10 of the
 * bench's recall questions over every stored vector, then for each way of finding full-text candidates prints
 * the wall time of that full-text query and of nearest(), and recall@10 of nearest() with those candidates.
 *
 *   npx tsx scripts/lexical-split-probe.ts --data-dir <dir>/scale/store [--queries 100]
 */
import BetterSqlite3 from 'better-sqlite3';
import usearch from 'usearch';
import { recallQuestions } from '../bench/lib/search-queries.js';
import { naturalLanguageQuery } from '../src/domain/full-text-query.js';
import type { ScoredKey } from '../src/domain/search.js';
import type { MessageSearchReader } from '../src/ports/message-search.js';
import type { VectorSearch } from '../src/ports/vector-search.js';
import type { EmbeddingProvider } from '../src/ports/embedding-provider.js';
import { startService } from '../test/helpers/service-harness.js';

function option(name: string, fallback: string): string {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1]! : fallback;
}

const dataDir = option('data-dir', '');
const questions = recallQuestions(Number(option('queries', '100')));

// Every stored vector, for the exact top 10.
const db = new BetterSqlite3(`${dataDir}/memsvc.db`, { readonly: true });
const count = db.prepare('SELECT count(*) FROM message_vectors').pluck().get() as number;
const keys = new BigUint64Array(count);
let matrix = new Float32Array(0);
let dimension = 0;
let row = 0;
for (const item of db.prepare('SELECT message_seq AS key, vector FROM message_vectors').iterate() as
  IterableIterator<{ key: number; vector: Buffer }>) {
  if (dimension === 0) { dimension = item.vector.byteLength / 4; matrix = new Float32Array(count * dimension); }
  new Uint8Array(matrix.buffer, row * dimension * 4, dimension * 4).set(item.vector);
  keys[row] = BigInt(item.key);
  row += 1;
}
db.close();
console.log(`${count} vectors loaded`);

const stack = await startService({ bridge: 'builtin', logger: { level: 'warn' }, dataDir,
  overrides: { rate_limit: { enabled: false } } });
try {
  await stack.waitForEmbeddings(600_000);
  const deps = (stack.controller.search as unknown as {
    deps: { reader: MessageSearchReader; vectors: VectorSearch; provider: EmbeddingProvider; holder: { refresh(): Promise<void> } };
  }).deps;
  await deps.holder.refresh();
  const vectors = (await deps.provider.embed(questions)).vectors;
  const queryMatrix = new Float32Array(questions.length * dimension);
  vectors.forEach((vector, i) => queryMatrix.set(vector, i * dimension));
  const exact = usearch.exactSearch(matrix, queryMatrix, dimension, 10, usearch.MetricKind.Cos, 0) as { keys: BigUint64Array };
  const exactKeys = questions.map((_, q) => new Set(Array.from(exact.keys.subarray(q * 10, q * 10 + 10), (k) => Number(keys[Number(k)]))));

  const strategies: Array<[string, (q: string) => Promise<ScoredKey[]>]> = [
    ['graph only', async () => []],
    ['own words, common-word rule (first version)', async (q) =>
      deps.reader.fullText(naturalLanguageQuery(q)!, {}, 32, { contextWeight: 0, commonShare: 0.1 })],
    ['with neighbours 0.5, common-word rule (hybrid)', async (q) =>
      deps.reader.fullText(naturalLanguageQuery(q)!, {}, 32, { contextWeight: 0.5, commonShare: 0.1 })],
    ['with neighbours 0.01, common-word rule', async (q) =>
      deps.reader.fullText(naturalLanguageQuery(q)!, {}, 32, { contextWeight: 0.01, commonShare: 0.1 })],
    ['with neighbours 0.01, newest 20,000 scored', async (q) =>
      deps.reader.fullText(naturalLanguageQuery(q)!, {}, 32, { contextWeight: 0.01, commonShare: 1 })],
    ['with neighbours 0.01, 64, newest 20,000 scored', async (q) =>
      deps.reader.fullText(naturalLanguageQuery(q)!, {}, 64, { contextWeight: 0.01, commonShare: 1 })],
  ];
  const pct0 = (values: number[], p: number) => [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor(p * values.length))]!;
  // --depths: the graph's candidates alone, more of them (nearest asks the index for depth + 16).
  for (const depth of option('depths', '').split(',').filter(Boolean).map(Number)) {
    const ms: number[] = [];
    let recall = 0;
    for (let round = 0; round < 2; round += 1) {
      for (const q of questions.keys()) {
        const t = performance.now();
        const found = await deps.vectors.nearest(vectors[q]!, {}, depth);
        ms.push(performance.now() - t);
        if (round === 1) recall += found.slice(0, 10).filter((item) => exactKeys[q]!.has(item.key)).length / 10;
      }
    }
    console.log(`graph only, depth ${depth}`.padEnd(48) + ` recall@10 ${(recall / questions.length).toFixed(3)}; nearest p50 ` +
      `${pct0(ms, 0.5).toFixed(2)} p95 ${pct0(ms, 0.95).toFixed(2)} ms`);
  }
  if (process.argv.includes('--depths-only')) strategies.length = 0;
  const pct = (values: number[], p: number) => [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor(p * values.length))]!;
  for (const [name, lexical] of strategies) {
    const textMs: number[] = [];
    const nearestMs: number[] = [];
    let recall = 0;
    for (let round = 0; round < 2; round += 1) {
      for (const [q, question] of questions.entries()) {
        let t = performance.now();
        const candidates = (await lexical(question)).map((item) => item.key);
        textMs.push(performance.now() - t);
        t = performance.now();
        const found = await deps.vectors.nearest(vectors[q]!, {}, 100, candidates);
        nearestMs.push(performance.now() - t);
        if (round === 1) recall += found.slice(0, 10).filter((item) => exactKeys[q]!.has(item.key)).length / 10;
      }
    }
    console.log(`${name.padEnd(48)} recall@10 ${(recall / questions.length).toFixed(3)}; full text p50 ${pct(textMs, 0.5).toFixed(2)} ` +
      `p95 ${pct(textMs, 0.95).toFixed(2)} ms; nearest p50 ${pct(nearestMs, 0.5).toFixed(2)} p95 ${pct(nearestMs, 0.95).toFixed(2)} ms`);
  }
} finally {
  await stack.stop();
}
