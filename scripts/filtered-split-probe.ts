/**
 * Where a filtered semantic search's time goes at scale: the graph search for k candidates, and the re-rank's
 * read of their stored vectors (joined to the filter) against a keys-only filter pass and a by-key read.
 *
 *   npx tsx scripts/filtered-split-probe.ts --data-dir <store> [--queries 30]
 */
import { join } from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import usearch from 'usearch';
import { createBuiltinEmbedder } from '../src/bridge/builtin/embedding/builtin-embedder.js';
import { recallQuestions } from '../bench/lib/search-queries.js';
import { SHARED_MODEL_CACHE } from '../test/helpers/service-harness.js';
import { admittedKeys } from '../src/adapters/sqlite/sqlite-admitted-keys.js';
import { StatementCache } from '../src/adapters/sqlite/sqlite-statements.js';
import { option } from './lib/probe-options.js';

const dataDir = option('data-dir', '');
const queries = Number(option('queries', '30'));
const pct = (values: number[], p: number) => [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.floor(p * values.length))]!;

const index = new usearch.Index({ dimensions: 768, metric: usearch.MetricKind.Cos, quantization: usearch.ScalarKind.I8,
  connectivity: 64, expansion_add: 64, expansion_search: 384, multi: false });
let t = performance.now();
index.load(join(dataDir, 'vectors', 'vectors.usearch'));
console.log(`loaded ${index.size()} vectors in ${(performance.now() - t).toFixed(0)} ms`);
const db = new BetterSqlite3(join(dataDir, 'memsvc.db'), { readonly: true });
const embedder = await createBuiltinEmbedder({ cacheDir: SHARED_MODEL_CACHE });
const vectors = await embedder.embed(recallQuestions(queries));

const joined = db.prepare(`SELECT v.message_seq AS key, v.vector FROM message_vectors v
  JOIN messages m ON m.seq = v.message_seq JOIN conversations c ON c.id = m.conversation_id
  WHERE v.message_seq IN (SELECT value FROM json_each(?)) AND (c.folder = ? OR (c.folder >= ? AND c.folder < ?))`);
// The service's own filter check, key by key and as a set of conversations (src/adapters/sqlite/sqlite-admitted-keys.ts).
const statements = new StatementCache(db);
const byKey = db.prepare(`SELECT message_seq AS key, vector FROM message_vectors WHERE message_seq IN (SELECT value FROM json_each(?))`);

for (const [folder, k] of [['', 116], ['/sel/a', 2016], ['/sel/a/b', 4000]] as Array<[string, number]>) {
  const graph: number[] = [];
  const join: number[] = [];
  const filterKeys: number[] = [];
  const read: number[] = [];
  const set: number[] = [];
  let admittedCount = 0;
  for (const query of vectors) {
    t = performance.now();
    const found = index.search(Float32Array.from(query), k, 1);
    graph.push(performance.now() - t);
    const keyList = Array.from(found.keys, Number);
    const keys = JSON.stringify(keyList);
    const params = [folder, `${folder}/`, `${folder}0`];
    if (folder === '') {
      t = performance.now();
      byKey.all(keys);
      read.push(performance.now() - t);
      continue;
    }
    t = performance.now();
    joined.all(keys, ...params);
    join.push(performance.now() - t);
    t = performance.now();
    const admitted = admittedKeys(statements, keyList, { folder }, false);
    filterKeys.push(performance.now() - t);
    admittedCount += admitted.length;
    t = performance.now();
    const second = admittedKeys(statements, keyList, { folder }, true);
    set.push(performance.now() - t);
    if (second.length !== admitted.length) throw new Error('set variant disagrees');
    t = performance.now();
    byKey.all(JSON.stringify(admitted));
    read.push(performance.now() - t);
  }
  const show = (name: string, values: number[]) => values.length ? `${name} p50 ${pct(values, 0.5).toFixed(2)} p95 ${pct(values, 0.95).toFixed(2)}` : '';
  console.log(`folder ${folder || '(none)'} k ${k}: ${show('graph', graph)} · ${show('join+vectors', join)} · ${show('keys only', filterKeys)} · ${show('via conversation set', set)} · ` +
    `${show('vectors by key', read)} · admitted ${(admittedCount / vectors.length).toFixed(0)} a query`);
}
