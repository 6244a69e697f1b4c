/**
 * The scale bench's ingest-to-searchable row alone, on an existing scale-bench store: starts a bench bridge and a
 * controller (a child process, as the bench does; it inherits this environment, so MEMSVC_* settings apply), waits
 * until every stored message is in the graph and --settle seconds more, then writes at --rate msgs/s for --seconds
 * while a probe every 250 ms is timed from its POST to its first semantic hit. --runs repeats that.
 *
 *   npx tsx scripts/searchable-probe.ts --store <scale bench data dir>/scale [--rate 1000] [--seconds 20] [--runs 2]
 */
import { steadyIngestToSearchable } from '../bench/scale.bench.js';
import { option } from './lib/probe-options.js';
import { openScaleStore } from './lib/scale-store.js';

const store = option('store', '');
if (!store) throw new Error('--store <scale bench data dir>/scale is required');
const settings: Record<string, number> = { 'steady-rate': Number(option('rate', '1000')), 'steady-seconds': Number(option('seconds', '20')) };

const { client, close } = await openScaleStore(store, 32, true);
try {
  await new Promise((resolve) => setTimeout(resolve, Number(option('settle', '5')) * 1000));
  const context = {
    quick: false, serverMode: 'child' as const, keepData: true,
    number: (name: string) => settings[name]!, numbers: () => [], string: () => '', log: (message: string) => console.error(message),
  };
  for (let run = 0; run < Number(option('runs', '2')); run += 1) {
    const row = await steadyIngestToSearchable(context, client);
    console.log(`run ${run + 1}: ${row.count} probes, p50 ${row.p50_ms.toFixed(1)} / p95 ${row.p95_ms.toFixed(1)} / max ${row.max_ms.toFixed(1)} ms, ${row.errors} refused`);
  }
} finally {
  await close();
}
