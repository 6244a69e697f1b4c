/**
 * Insert threads against a busy core (issue 16): builds a graph of BASE bench-corpus vectors (default 200,000),
 * saves it, then for each of "alone" and "beside one busy process" loads it again and inserts EXTRA more
 * (default 30,000) with one thread (slices of 32) and with two (slices of 64), printing CPU a vector and
 * vectors a second.
 *
 *   npx tsx scripts/insert-threads-probe.ts 200000 30000
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir, loadavg } from 'node:os';
import { join } from 'node:path';
import { spawn } from 'node:child_process';
import usearch from 'usearch';
import { generateConversation } from '../bench/lib/corpus.js';
import { createBuiltinEmbedder } from '../src/bridge/builtin/embedding/builtin-embedder.js';
import { SHARED_MODEL_CACHE } from '../test/helpers/service-harness.js';

const BASE = Number(process.argv[2] ?? 200000), EXTRA = Number(process.argv[3] ?? 30000);
const N = BASE + EXTRA, D = 768;
const embedder = await createBuiltinEmbedder({ cacheDir: SHARED_MODEL_CACHE });
const matrix = new Float32Array(N * D);
for (let c = 0, row = 0; row < N; c += 1) {
  const conv = generateConversation(c, { seed: 42, messagesPerConversation: 10 });
  for (const v of await embedder.embed(conv.messages.map((m) => m.content))) { if (row >= N) break; matrix.set(v, row * D); row += 1; }
}
const make = () => new usearch.Index({ dimensions: D, metric: usearch.MetricKind.Cos, quantization: usearch.ScalarKind.I8, connectivity: 64, expansion_add: 64, expansion_search: 384, multi: false });
const add = (index: any, from: number, to: number, slice: number, threads: number) => {
  for (let s = from; s < to; s += slice) {
    const e = Math.min(to, s + slice);
    const keys = new BigUint64Array(e - s); for (let i = s; i < e; i += 1) keys[i - s] = BigInt(i);
    index.add(keys, matrix.subarray(s * D, e * D), threads);
  }
};
const dir = mkdtempSync(join(tmpdir(), 'thr-'));
let t0 = performance.now();
const base = make(); add(base, 0, BASE, 512, 2); base.save(join(dir, 'base.usearch'));
console.log(`base ${BASE} built in ${((performance.now() - t0) / 1000).toFixed(0)} s`);
for (const hog of [false, true]) {
  const hogs = hog ? [spawn(process.execPath, ['-e', 'for(;;){}'])] : [];
  for (const [slice, threads] of [[32, 1], [64, 2]] as const) {
    const index = make(); index.load(join(dir, 'base.usearch'));
    const c0 = process.cpuUsage(); t0 = performance.now();
    add(index, BASE, N, slice, threads);
    const cu = process.cpuUsage(c0); const wall = performance.now() - t0;
    console.log(`hogs ${hogs.length}, threads ${threads}: ${((cu.user + cu.system) / EXTRA).toFixed(0)} µs CPU a vector, ${(EXTRA / wall * 1000).toFixed(0)} vectors/s wall, load ${loadavg()[0]!.toFixed(1)}`);
  }
  for (const h of hogs) h.kill();
}
process.exit(0);
