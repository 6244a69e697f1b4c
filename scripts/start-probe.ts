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
import { spawn } from 'node:child_process';
import { resolve } from 'node:path';
import { freePort } from '../bench/lib/bridge.js';
import { option } from './lib/probe-options.js';

const dataDir = option('data-dir', '');
if (dataDir === '') throw new Error('--data-dir <store> is required (a store the scale bench seeded: <dir>/scale/store)');
const rounds = Number(option('rounds', '3'));
const dists = option('dist', 'dist').split(',').map((dir) => resolve(dir));

interface Start { healthyMs: number; controllerListeningMs: number | null; bridgeListeningMs: number | null }

async function startOnce(dist: string): Promise<Start> {
  const [port, bridgePort] = [await freePort(), await freePort()];
  const started = performance.now();
  const startedAt = Date.now();
  const child = spawn(process.execPath, [`${dist}/cli.js`, 'start'], {
    env: {
      ...process.env, MEMSVC_DATA_DIR: dataDir, MEMSVC_PORT: String(port), MEMSVC_BRIDGE_PORT: String(bridgePort),
      MEMSVC_API_KEY: 'start-probe-key-0123456789', MEMSVC_RATE_LIMIT_ENABLED: 'false',
    },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => { output += chunk.toString(); });
  try {
    for (;;) {
      if (child.exitCode !== null) throw new Error(`memsvc start exited with ${child.exitCode}:\n${output}`);
      const response = await fetch(`http://127.0.0.1:${port}/health`).catch(() => null);
      if (response?.status === 200) break;
      await new Promise((done) => setTimeout(done, 25));
    }
    const healthyMs = performance.now() - started;
    const listening = (component: string) => {
      const line = output.split('\n').find((text) => text.includes(`"component":"${component}"`) && text.includes('Server listening'));
      return line ? (JSON.parse(line) as { time: number }).time - startedAt : null;
    };
    return { healthyMs, controllerListeningMs: listening('api'), bridgeListeningMs: listening('bridge') };
  } finally {
    const exited = new Promise((done) => child.once('exit', done));
    child.kill('SIGINT');
    await exited;
  }
}

for (let round = 1; round <= rounds; round += 1) {
  for (const dist of dists) {
    const start = await startOnce(dist);
    console.log(`round ${round} ${dist}: healthy after ${start.healthyMs.toFixed(0)} ms (controller listening ` +
      `${start.controllerListeningMs ?? '?'} ms, bridge ${start.bridgeListeningMs ?? '?'} ms)`);
  }
}
