/**
 * Start-up as a user runs it: `memsvc start` from the compiled dist/ (controller and its own bridge, as `npm start`
 * starts them), on an existing store, timed from the spawn to the first 200 from /health. The scale bench's restart
 * row times the controller alone, from source under tsx, with its bridge already running.
 *
 *   npm run build && npx tsx scripts/start-probe.ts --data-dir <dir>/scale/store [--rounds 3] [--dist <dir>/dist,...]
 *
 * Several --dist (comma-separated) are started in turn each round, so that builds compare on the same machine phase.
 * The store's own settings apply (the bridge's model cache in <data-dir>/cache); the rate limit is off.
 */
import { resolve } from 'node:path';
import { timeMemsvcStart } from '../bench/lib/memsvc-start.js';
import { option } from './lib/probe-options.js';

const dataDir = option('data-dir', '');
if (dataDir === '') throw new Error('--data-dir <store> is required (a store the scale bench seeded: <dir>/scale/store)');
const rounds = Number(option('rounds', '3'));
const dists = option('dist', 'dist').split(',').map((dir) => resolve(dir));

for (let round = 1; round <= rounds; round += 1) {
  for (const dist of dists) {
    const start = await timeMemsvcStart(dist, dataDir);
    console.log(`round ${round} ${dist}: healthy after ${start.healthyMs.toFixed(0)} ms (controller listening ` +
      `${start.controllerListeningMs ?? '?'} ms, bridge ${start.bridgeListeningMs ?? '?'} ms)`);
  }
}
