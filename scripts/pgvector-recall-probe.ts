/**
 * pgvector recall@10 against an exact scan, HNSW by build parameters and ef_search and ivfflat by lists and probes
 * ("auto" lists: the driver's, the square root of the vectors), on real PostgreSQL (PGlite:
 * PostgreSQL 18 + pgvector 0.8 in WASM, one thread, in this process). The vectors are a scale-bench store's stored
 * vectors (the builtin engine's, of the bench corpus); the questions are the scale bench's recall questions, embedded
 * by a bench bridge. The postgres driver asks the index for the search depth (100 for a 10-result question).
 *
 *   npx tsx scripts/pgvector-recall-probe.ts --store <scale bench data dir>/scale --vectors 20000 \
 *     --builds 16:64,24:128 --ef 100,200,400 --limit 100 [--questions 100] [--question-set recall|postgres] [--build-memory 768MB]
 *     [--ivfflat auto:0.05:0.1:0.2,224:0.1 (lists:probe shares; --builds none for ivfflat alone)]
 */
import { join } from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import { PGlite } from '@electric-sql/pglite';
import { vector } from '@electric-sql/pglite-pgvector';
import { startBenchBridge } from '../bench/lib/bridge.js';
import { BENCH_QUERIES, recallQuestions } from '../bench/lib/search-queries.js';
import { API_KEY } from '../bench/scale.bench.js';
import { blobToVector } from '../src/adapters/sqlite/sqlite-embedding.queue.js';
import { toVectorText as text } from '../src/adapters/postgres/postgres-pool.js';
import { summarize } from '../bench/lib/stats.js';
import { option } from './lib/probe-options.js';
import { listsFor } from '../src/adapters/postgres/postgres-vector-index.js';

const store = option('store', '');
const count = Number(option('vectors', '20000'));
const builds = option('builds', '16:64,24:128').split(',').filter((build) => build !== 'none').map((build) => build.split(':').map(Number) as [number, number]);
const efs = option('ef', '100,200,400').split(',').map(Number);
const limit = Number(option('limit', '100'));
const questions = Number(option('questions', '100'));
if (!store) throw new Error('--store <scale bench data dir>/scale is required');

const sqlite = new BetterSqlite3(join(store, 'store', 'memsvc.db'), { readonly: true });
const rows = sqlite.prepare('SELECT message_seq AS key, vector FROM message_vectors ORDER BY message_seq LIMIT ?').all(count) as
  Array<{ key: number; vector: Buffer }>;
sqlite.close();
const dimension = rows[0]!.vector.byteLength / 4;
const bridge = await startBenchBridge(join(store, 'bridge'), API_KEY);
// recall: the scale bench's recall questions; postgres: the postgres bench's (each bench question with "today" and "again").
const questionSet = option('question-set', 'recall');
/** Cosine distances this close to the exact 10th count as tied with it. */
const TIE = 1e-6;
const texts = questionSet === 'postgres'
  ? ['today', 'again'].flatMap((suffix) => BENCH_QUERIES.map((question) => `${question} ${suffix}`)).slice(0, questions)
  : recallQuestions(questions);
const queries = await bridge.embed(texts);
await bridge.close();

const db = await PGlite.create({ extensions: { vector } });
// The graph is built in memory only while it fits in maintenance_work_mem (64 MB by default: about 20,000 of these
// vectors); past that pgvector builds on disk, many times slower.
await db.exec(`CREATE EXTENSION vector; SET maintenance_work_mem = '${option('build-memory', '768MB')}';
  CREATE TABLE v (key bigint PRIMARY KEY, embedding vector(${dimension}))`);
let started = performance.now();
for (let i = 0; i < rows.length; i += 500) {
  const chunk = rows.slice(i, i + 500);
  await db.query('INSERT INTO v SELECT key, embedding::vector FROM unnest($1::bigint[], $2::text[]) AS r (key, embedding)',
    [chunk.map((row) => row.key), chunk.map((row) => text(blobToVector(row.vector)))]);
}
console.log(`${rows.length} vectors of ${dimension} loaded in ${((performance.now() - started) / 1000).toFixed(1)} s`);

// The exact 10 and, as the scale bench also counts them, every vector tied with the exact 10th: any of those is a
// correct 10th answer.
const truths: Array<{ top: Set<number>; tied: Set<number> }> = [];
for (const query of queries) {
  const exact = await db.query<{ key: number; distance: number }>(
    'SELECT key, embedding <=> $1::vector AS distance FROM v ORDER BY (embedding <=> $1::vector) + 0 LIMIT 10', [text(query)]);
  const tenth = exact.rows.at(-1)!.distance;
  const tied = await db.query<{ key: number }>('SELECT key FROM v WHERE (embedding <=> $1::vector) <= $2', [text(query), tenth + TIE]);
  truths.push({ top: new Set(exact.rows.map((row) => Number(row.key))), tied: new Set(tied.rows.map((row) => Number(row.key))) });
}

/** Asks every question through the index as set now; prints recall@10 (and with ties) and the p50. */
async function measure(label: string): Promise<void> {
  let found = 0;
  let foundWithTies = 0;
  const times: number[] = [];
  for (let q = 0; q < queries.length; q += 1) {
    const t0 = performance.now();
    const result = await db.query<{ key: number }>('SELECT key FROM v ORDER BY embedding <=> $1::vector LIMIT $2', [text(queries[q]!), limit]);
    times.push(performance.now() - t0);
    const top = result.rows.slice(0, 10).map((row) => Number(row.key));
    found += top.filter((key) => truths[q]!.top.has(key)).length;
    foundWithTies += Math.min(10, top.filter((key) => truths[q]!.tied.has(key)).length);
  }
  console.log(`${label}: recall@10 ${(found / (10 * queries.length)).toFixed(3)} (counting ties with the exact 10th: ` +
    `${(foundWithTies / (10 * queries.length)).toFixed(3)}), p50 ${summarize(times, 0, 0).p50_ms.toFixed(1)} ms`);
}

for (const [m, efConstruction] of builds) {
  await db.exec('DROP INDEX IF EXISTS v_hnsw');
  started = performance.now();
  await db.exec(`CREATE INDEX v_hnsw ON v USING hnsw (embedding vector_cosine_ops) WITH (m = ${m}, ef_construction = ${efConstruction})`);
  const buildS = (performance.now() - started) / 1000;
  for (const ef of efs) {
    await db.exec(`SET hnsw.ef_search = ${ef}`);
    await measure(`m ${m}, ef_construction ${efConstruction} (built in ${buildS.toFixed(1)} s), ef_search ${ef}, limit ${limit}`);
  }
}
for (const spec of option('ivfflat', '').split(',').filter(Boolean)) {
  const [listsText, ...shares] = spec.split(':');
  const lists = listsText === 'auto' ? listsFor(rows.length) : Number(listsText);
  await db.exec('DROP INDEX IF EXISTS v_hnsw; DROP INDEX IF EXISTS v_ivfflat');
  started = performance.now();
  await db.exec(`CREATE INDEX v_ivfflat ON v USING ivfflat (embedding vector_cosine_ops) WITH (lists = ${lists})`);
  const buildS = (performance.now() - started) / 1000;
  for (const share of shares.map(Number)) {
    const probes = Math.min(lists, Math.max(1, Math.ceil(lists * share)));
    await db.exec(`SET ivfflat.probes = ${probes}`);
    await measure(`ivfflat lists ${lists} (built in ${buildS.toFixed(1)} s), probes ${probes} (share ${share})`);
  }
}
await db.close();
