import { fork, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { Logger } from './ports/logger.js';

const RESTART_DELAY_MS = 1000;

/**
 * Runs the LLM bridge as a child process, so CPU-heavy embedding never stalls
 * the controller's event loop, and restarts it when it dies unexpectedly.
 */
export function superviseBridge(env: NodeJS.ProcessEnv, log: Logger, options: { output?: NodeJS.WriteStream } = {}):
  { stop(): Promise<void> } {
  // The bridge logs where the controller does (stderr under `memsvc mcp`, whose stdout is the protocol).
  const out = options.output === process.stderr ? 2 : 'inherit';
  // Compiled: dist/bridge/bridge.main.js; from source (tsx): src/bridge/bridge.main.ts.
  const fromSource = import.meta.url.endsWith('.ts');
  const entry = fileURLToPath(new URL(`./bridge/bridge.main.${fromSource ? 'ts' : 'js'}`, import.meta.url));
  let child: ChildProcess | null = null;
  let stopping = false;

  const start = () => {
    child = fork(entry, [], { env, execArgv: fromSource ? ['--import', 'tsx'] : [], stdio: ['ignore', out, out, 'ipc'] });
    child.on('exit', (code, signal) => {
      child = null;
      if (stopping) return;
      log.error({ code, signal }, 'LLM bridge exited; restarting');
      setTimeout(() => { if (!stopping) start(); }, RESTART_DELAY_MS).unref();
    });
  };
  start();

  return {
    stop: () => new Promise((resolve) => {
      stopping = true;
      if (!child) return resolve();
      child.once('exit', () => resolve());
      child.kill('SIGTERM');
    }),
  };
}
