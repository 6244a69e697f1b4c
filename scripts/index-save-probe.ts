/**
 * What one save of the vector index's graphs costs (issue 16): loads each partition graph of a store and writes
 * it to a scratch directory, as the index thread's periodic save does, timing each write. While a graph is
 * written the index thread answers nothing: no search, no insert.
 *
 *   npx tsx scripts/index-save-probe.ts --data-dir <dir>/scale/store [--graphs 8]
 */
import { mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import usearch from 'usearch';
import { SCALAR_KINDS, UsearchVectorIndex } from '../src/adapters/vector/usearch-vector.index.js';
import { option } from './lib/probe-options.js';

const root = join(option('data-dir', ''), 'vectors', 'partitions');
const limit = Number(option('graphs', '8'));
const scratch = mkdtempSync(join(tmpdir(), 'memsvc-save-probe-'));
const graphs = readdirSync(root).filter((name) => /^\d+$/.test(name)).sort((a, b) => Number(a) - Number(b)).slice(0, limit);
const timings: number[] = [];
let bytes = 0;
try {
  for (const name of graphs) {
    // The graph's own dimension and quantization, as the service reads them.
    const graph = UsearchVectorIndex.savedGraph(join(root, name));
    if (!graph) throw new Error(`${join(root, name)} holds no readable graph`);
    const index = new usearch.Index({
      dimensions: graph.dimension, metric: usearch.MetricKind.Cos, quantization: SCALAR_KINDS[graph.quantization],
      connectivity: 0, expansion_add: 0, expansion_search: 0, multi: false,
    });
    index.load(graph.file);
    const target = join(scratch, `${name}.usearch`);
    const started = performance.now();
    index.save(target);
    timings.push(performance.now() - started);
    bytes += statSync(target).size;
    console.log(`partition ${name}: ${index.size()} vectors, ${(statSync(target).size / 2 ** 20).toFixed(1)} MiB, saved in ${timings.at(-1)!.toFixed(0)} ms`);
    rmSync(target);
  }
} finally {
  rmSync(scratch, { recursive: true, force: true });
}
const total = timings.reduce((a, b) => a + b, 0);
console.log(`${timings.length} graphs, ${(bytes / 2 ** 20).toFixed(0)} MiB in ${total.toFixed(0)} ms (mean ${(total / Math.max(1, timings.length)).toFixed(0)} ms a graph)`);
