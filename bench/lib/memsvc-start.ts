import { spawn } from 'node:child_process';
import { freePort } from './bridge.js';

export interface MemsvcStart {
  /** From the spawn to the first 200 from /health. */
  healthyMs: number;
  /** When the controller and the bridge it supervises logged that they listen (ms after the spawn), if they did. */
  controllerListeningMs: number | null;
  bridgeListeningMs: number | null;
}

/**
 * `memsvc start` from a compiled dist/ (what `npm start` runs: the controller and the bridge it supervises) on an
 * existing data dir, timed until /health answers 200, then stopped with SIGINT as a user would.
 */
export async function timeMemsvcStart(dist: string, dataDir: string, timeoutMs = 120_000): Promise<MemsvcStart> {
  const [port, bridgePort] = [await freePort(), await freePort()];
  const started = performance.now();
  const startedAt = Date.now();
  const child = spawn(process.execPath, [`${dist}/cli.js`, 'start'], {
    env: {
      ...process.env, MEMSVC_DATA_DIR: dataDir, MEMSVC_PORT: String(port), MEMSVC_BRIDGE_PORT: String(bridgePort),
      MEMSVC_API_KEY: 'memsvc-start-timing-key-0123456789', MEMSVC_RATE_LIMIT_ENABLED: 'false',
    },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => { output += chunk.toString(); });
  try {
    for (;;) {
      if (child.exitCode !== null) throw new Error(`memsvc start exited with ${child.exitCode}:\n${output}`);
      if (performance.now() - started > timeoutMs) throw new Error(`memsvc start not healthy within ${timeoutMs} ms:\n${output}`);
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
    if (child.exitCode === null) {
      const exited = new Promise((done) => child.once('exit', done));
      child.kill('SIGINT');
      await exited;
    }
  }
}
