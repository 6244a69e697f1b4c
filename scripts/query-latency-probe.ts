/**
 * Question latency over HTTP on an existing scale-bench store: starts a bench bridge and a controller (in a child
 * process, as the scale bench does; BENCH_SERVER_NODE_ARGS is honoured, e.g. `--cpu-prof --cpu-prof-dir=<dir>`), waits
 * until the index has caught up, then asks the scale bench's recall questions one at a time, per mode, after 20
 * warm-up questions. Prints p50 / p95 per mode and /health's p50 (the HTTP round trip alone), and apart the questions
 * asked for the first time in this run and those asked again (a first ask reads stored vectors and rows no cache holds).
 *
 *   npx tsx scripts/query-latency-probe.ts --store <scale bench data dir>/scale --rounds 600 --modes context,semantic,hybrid
 */
import { recallQuestions } from '../bench/lib/search-queries.js';
import { summarize } from '../bench/lib/stats.js';
import { option } from './lib/probe-options.js';
import { openScaleStore } from './lib/scale-store.js';

const store = option('store', '');
const rounds = Number(option('rounds', '600'));
const modes = option('modes', 'context,semantic,hybrid').split(',');
if (!store) throw new Error('--store <scale bench data dir>/scale is required');

const { client, close } = await openScaleStore(store, 4);
try {
  const questions = recallQuestions(100);
  const asked = new Set<number>();
  for (const mode of modes) {
    const path = mode === 'context' ? '/api/v1/context/assemble' : '/api/v1/query';
    const body = (question: string) => JSON.stringify(mode === 'context' ? { query: question } : { query: question, mode, limit: 10 });
    const ask = async (i: number) => {
      asked.add(i % questions.length);
      const answer = await client.request('POST', path, body(questions[i % questions.length]!));
      if (answer.status !== 200) throw new Error(`${mode}: ${answer.status} ${answer.body.slice(0, 300)}`);
    };
    for (let i = 0; i < 20; i += 1) await ask(i);
    const times: number[] = [];
    const firstAsks: number[] = [];
    const again: number[] = [];
    for (let i = 0; i < rounds; i += 1) {
      const first = !asked.has(i % questions.length);
      const started = performance.now();
      await ask(i);
      const elapsed = performance.now() - started;
      times.push(elapsed);
      (first ? firstAsks : again).push(elapsed);
    }
    const health: number[] = [];
    for (let i = 0; i < 200; i += 1) {
      const started = performance.now();
      await client.request('GET', '/health');
      health.push(performance.now() - started);
    }
    const latency = summarize(times, 0, 0);
    console.log(`${mode}: p50 ${latency.p50_ms.toFixed(2)} / p95 ${latency.p95_ms.toFixed(2)} ms over ${rounds}; ` +
      `/health p50 ${summarize(health, 0, 0).p50_ms.toFixed(2)} ms`);
    for (const [what, list] of [['first asks', firstAsks], ['asked again', again]] as const) {
      if (list.length > 0) console.log(`  ${what}: p50 ${summarize(list, 0, 0).p50_ms.toFixed(2)} / p95 ${summarize(list, 0, 0).p95_ms.toFixed(2)} ms over ${list.length}`);
    }
  }
} finally {
  await close();
}
