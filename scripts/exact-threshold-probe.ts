/**
 * Where an exact scan beats the graph for a filtered semantic search (search.exact_max_candidates), on a scale-bench
 * store (issue 16): for each --thresholds value, starts the service in process on --data-dir and, for the scale
 * bench's folder filters of 10%, 1% and 0.1%, times semantic search (in process, embedding included) and measures
 * recall@10 against the exact top 10 of the filter's vectors.
 *
 *   npx tsx scripts/exact-threshold-probe.ts --data-dir <dir>/scale/store --thresholds 4000,16000 [--queries 100]
 */
import BetterSqlite3 from 'better-sqlite3';
import usearch from 'usearch';
import { recallQuestions } from '../bench/lib/search-queries.js';
import { percentile } from '../bench/lib/stats.js';
import { createBuiltinEmbedder } from '../src/bridge/builtin/embedding/builtin-embedder.js';
import { folderSubtree } from '../src/adapters/sql/filter-sql.js';
import { isInFolder } from '../src/domain/folder-path.js';
import { SHARED_MODEL_CACHE, startService } from '../test/helpers/service-harness.js';
import { option } from './lib/probe-options.js';

const dataDir = option('data-dir', '');
const questions = recallQuestions(Number(option('queries', '100')));
/** The scale bench's 10%, 1% and 0.1% folders, each the subtree of the one before. */
const FOLDERS = ['/sel/a', '/sel/a/b', '/sel/a/b/c'];

// The stored vectors of each filter's subtree, for its exact top 10.
const db = new BetterSqlite3(`${dataDir}/memsvc.db`, { readonly: true });
const inFolder = new Map(FOLDERS.map((folder) => [folder, { ids: [] as string[], vectors: [] as Buffer[] }]));
const widest = folderSubtree('c.folder', FOLDERS[0]!);
for (const row of db.prepare(`SELECT m.id, c.folder, v.vector FROM message_vectors v JOIN messages m ON m.seq = v.message_seq
  JOIN conversations c ON c.id = m.conversation_id WHERE ${widest.sql}`).iterate(...widest.params) as
  IterableIterator<{ id: string; folder: string; vector: Buffer }>) {
  for (const folder of FOLDERS) {
    if (!isInFolder(row.folder, folder)) continue;
    inFolder.get(folder)!.ids.push(row.id);
    inFolder.get(folder)!.vectors.push(row.vector);
  }
}
db.close();

const pct = (values: number[], p: number) => percentile([...values].sort((a, b) => a - b), p);

// The exact top 10 of each question under each filter, with the builtin engine the service embeds with.
const vectors = await (await createBuiltinEmbedder({ cacheDir: SHARED_MODEL_CACHE })).embed(questions);
const dimension = vectors[0]!.length;
const queryMatrix = new Float32Array(questions.length * dimension);
vectors.forEach((vector, i) => queryMatrix.set(vector, i * dimension));
const exactIds = new Map(FOLDERS.map((folder) => {
  const { ids, vectors: blobs } = inFolder.get(folder)!;
  const matrix = new Float32Array(blobs.length * dimension);
  blobs.forEach((blob, i) => new Uint8Array(matrix.buffer, i * dimension * 4, dimension * 4).set(blob));
  const exact = usearch.exactSearch(matrix, queryMatrix, dimension, 10, usearch.MetricKind.Cos, 0) as { keys: BigUint64Array };
  return [folder, questions.map((_, q) => new Set(Array.from(exact.keys.subarray(q * 10, q * 10 + 10), (row) => ids[Number(row)]!)))];
}));

for (const threshold of option('thresholds', '4000,16000').split(',').map(Number)) {
  const stack = await startService({ bridge: 'builtin', logger: { level: 'warn' }, dataDir,
    overrides: { rate_limit: { enabled: false }, search: { exact_max_candidates: threshold } } });
  try {
    await stack.waitForEmbeddings(600_000);
    for (const folder of FOLDERS) {
      const ms: number[] = [];
      let recall = 0;
      for (let round = 0; round < 2; round += 1) {
        for (const [q, query] of questions.entries()) {
          const t = performance.now();
          const result = await stack.controller.search.query({ query, mode: 'semantic', limit: 10, offset: 0, filters: { folder } });
          ms.push(performance.now() - t);
          if (round === 1) recall += result.hits.filter((hit) => exactIds.get(folder)![q]!.has(hit.messageId)).length / 10;
        }
      }
      console.log(`exact_max_candidates ${threshold}, folder ${folder} (${inFolder.get(folder)!.ids.length} vectors): recall@10 ` +
        `${(recall / questions.length).toFixed(3)}, p50 ${pct(ms, 50).toFixed(2)} p95 ${pct(ms, 95).toFixed(2)} ms`);
    }
  } finally {
    await stack.stop();
  }
}
