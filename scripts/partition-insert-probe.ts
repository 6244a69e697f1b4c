/**
 * Insert slices in the partitioned index (issue 16): a slice of the insert loop spreads over up to `partitions`
 * graphs, one usearch add each. For each --slices value, builds the service's
 * PartitionedVectorIndex (default parameters, one insert thread a graph) from the bench corpus's first --messages vectors in
 * key order, as the index thread does (seed graph, split, moved vectors added back), and prints vectors a second,
 * CPU a vector, recall@10 after the exact re-rank (the service's search: probes 6, 116 candidates) and how many of
 * --self vectors (spread over the corpus) a search for the vector itself does not find (unreachable in its graph).
 *
 *   npx tsx scripts/partition-insert-probe.ts --messages 300000 --slices 64,256,1024 --self 30000
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createBuiltinEmbedder } from '../src/bridge/builtin/embedding/builtin-embedder.js';
import { PartitionedVectorIndex } from '../src/adapters/vector/partitioned-vector-index.js';
import { DEFAULT_HNSW_PARAMETERS } from '../src/adapters/vector/usearch-vector.index.js';
import { SHARED_MODEL_CACHE } from '../test/helpers/service-harness.js';
import { DIMENSION, embedCorpus, mean, recallCheck } from './lib/corpus-vectors.js';
import { option } from './lib/probe-options.js';

const size = Number(option('messages', '300000'));
const selfChecks = Math.min(size, Number(option('self', '0')));
const embedder = await createBuiltinEmbedder({ cacheDir: SHARED_MODEL_CACHE });
const matrix = await embedCorpus(embedder, size);
const { queries, recall } = await recallCheck(embedder, matrix, Number(option('queries', '100')));

for (const slice of option('slices', '64,256,1024').split(',').map(Number)) {
  const dir = mkdtempSync(join(tmpdir(), 'memsvc-insert-probe-'));
  const { index } = PartitionedVectorIndex.open(dir, embedder.model, DIMENSION, { ...DEFAULT_HNSW_PARAMETERS, searchThreads: 1 });
  const waiting: Array<{ keys: number[]; matrix: Float32Array }> = [];
  const cpu0 = process.cpuUsage();
  const started = performance.now();
  let splitAt = 0;
  const put = (keys: number[], block: Float32Array) => {
    index.add(keys, block);
    const moved = index.takeMoved();
    if (moved) { splitAt = performance.now() - started; waiting.push(moved); }
  };
  for (let from = 0; from < size; from += slice) {
    const to = Math.min(size, from + slice);
    put(Array.from({ length: to - from }, (_, i) => from + i), matrix.subarray(from * DIMENSION, to * DIMENSION));
    // Moved vectors go back in slices too, before new ones (the worker's FreshVectors keeps arrival order).
    while (waiting.length > 0) {
      const moved = waiting.shift()!;
      for (let at = 0; at < moved.keys.length; at += slice) {
        put(moved.keys.slice(at, at + slice), moved.matrix.subarray(at * DIMENSION, Math.min(moved.keys.length, at + slice) * DIMENSION));
      }
    }
  }
  const wall = performance.now() - started;
  const used = process.cpuUsage(cpu0);
  const found = queries.map((query, q) => recall(q, index.search(query, 116).map((item) => item.key)));
  let unreachable = 0;
  for (let check = 0; check < selfChecks; check += 1) {
    const row = Math.floor((check * size) / selfChecks);
    if (!index.search(matrix.subarray(row * DIMENSION, (row + 1) * DIMENSION), 10).some((item) => item.key === row)) unreachable += 1;
  }
  console.log(`slice ${String(slice).padStart(5)}: ${(size / wall * 1000).toFixed(0)} vectors/s (split after ${(splitAt / 1000).toFixed(1)} s), ` +
    `cpu ${((used.user + used.system) / size).toFixed(0)} µs a vector, recall@10 ${mean(found).toFixed(3)}` +
    (selfChecks > 0 ? `, ${unreachable} of ${selfChecks} vectors not found by themselves` : ''));
  rmSync(dir, { recursive: true, force: true });
}
