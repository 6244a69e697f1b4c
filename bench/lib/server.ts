import { fork, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { DATABASE_FILE } from '../../src/controller.js';
import { startController } from './controller.js';
import type { ServerTask } from './server-task.js';

export type ServerMode = 'child' | 'in-process';

export interface CpuTime {
  user_ms: number;
  system_ms: number;
}

export interface DatabaseSize {
  db_bytes: number;
  wal_bytes: number;
  total_bytes: number;
}

export interface BenchServer {
  mode: ServerMode;
  baseUrl: string;
  apiKey: string;
  dataDir: string;
  /** Runs a task inside the server process (see server-task.ts). */
  exec<A, R>(task: ServerTask<A, R>, args: A): Promise<R>;
  /** CPU time the server process has used so far (child mode; the whole process in in-process mode). */
  cpuTime(): Promise<CpuTime>;
  databaseSize(): DatabaseSize;
  /** Stops the server and, unless kept, removes the temp data dir. */
  close(): Promise<void>;
}

export interface BenchServerOptions {
  /**
   * `child` (default): the controller runs in its own Node process, so the
   * load generator does not share its event loop (closer to production).
   * `in-process`: same process; handy under a profiler or debugger.
   */
  mode?: ServerMode;
  /** Keep the temp data dir after close (its path is in the report). */
  keepData?: boolean;
  /** Use (and keep) this data dir instead of a fresh temp dir, e.g. to reuse a seeded store across runs. */
  dataDir?: string;
  /** Run the embedding worker against this bridge (default: no bridge, no worker). */
  bridgeUrl?: string;
  /** The service key (default: a random one); a bridge that requires a key must have been given the same. */
  apiKey?: string;
}

/** IPC protocol between startBenchServer and server-child.ts. */
export type ParentCommand =
  | { type: 'exec'; id: number; module: string; name: string; args: unknown }
  | { type: 'cpu'; id: number }
  | { type: 'close'; id: number };

export type ChildReply =
  | { type: 'ready'; baseUrl: string; apiKey: string; pid: number }
  | { type: 'result'; id: number; ok: true; value: unknown }
  | { type: 'result'; id: number; ok: false; error: string };

/** Starts a real controller on a fresh temp data dir and an ephemeral 127.0.0.1 port. */
export async function startBenchServer(options: BenchServerOptions = {}): Promise<BenchServer> {
  const persistent = options.dataDir !== undefined;
  const dataDir = persistent ? resolve(options.dataDir!) : mkdtempSync(join(tmpdir(), 'memsvc-bench-'));
  mkdirSync(dataDir, { recursive: true });
  const cleanup = () => {
    if (!options.keepData && !persistent) rmSync(dataDir, { recursive: true, force: true });
  };
  const databaseSize = (): DatabaseSize => {
    const size = (file: string) => {
      try {
        return statSync(join(dataDir, file)).size;
      } catch {
        return 0;
      }
    };
    const db = size(DATABASE_FILE);
    const wal = size(`${DATABASE_FILE}-wal`);
    return { db_bytes: db, wal_bytes: wal, total_bytes: db + wal };
  };

  if (options.mode === 'in-process') {
    const { controller, baseUrl, apiKey } = await startController(dataDir, options.bridgeUrl, options.apiKey);
    return {
      mode: 'in-process', baseUrl, apiKey, dataDir, databaseSize,
      exec: (task, args) => task.run(controller, args),
      cpuTime: async () => {
        const usage = process.cpuUsage();
        return { user_ms: usage.user / 1000, system_ms: usage.system / 1000 };
      },
      close: async () => {
        await controller.close();
        cleanup();
      },
    };
  }

  const child = fork(fileURLToPath(new URL('./server-child.ts', import.meta.url)),
    options.bridgeUrl ? [dataDir, options.bridgeUrl] : [dataDir], {
    // BENCH_SERVER_NODE_ARGS: more Node flags for the controller, e.g. `--cpu-prof --cpu-prof-dir=prof`.
    execArgv: ['--import', import.meta.resolve('tsx'), ...(process.env.BENCH_SERVER_NODE_ARGS ?? '').split(' ').filter(Boolean)],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    env: options.apiKey ? { ...process.env, MEMSVC_BENCH_API_KEY: options.apiKey } : process.env,
  });
  // Ctrl-C during a long seeding run: do not leave a large temp store behind.
  const onSignal = () => {
    child.kill('SIGKILL');
    cleanup();
    process.exit(130);
  };
  process.once('SIGINT', onSignal);
  try {
    const ready = await waitForReady(child);
    const call = createCaller(child);
    return {
      mode: 'child', baseUrl: ready.baseUrl, apiKey: ready.apiKey, dataDir, databaseSize,
      exec: <A, R>(task: ServerTask<A, R>, args: A) =>
        call({ type: 'exec', module: task.module, name: task.name, args }) as Promise<R>,
      cpuTime: () => call({ type: 'cpu' }) as Promise<CpuTime>,
      close: async () => {
        const exited = new Promise<void>((resolve) => {
          if (child.exitCode !== null) resolve();
          else child.once('exit', () => resolve());
        });
        if (child.connected) await call({ type: 'close' }).catch(() => undefined);
        await Promise.race([exited, delay(5000).then(() => child.kill('SIGKILL'))]);
        process.off('SIGINT', onSignal);
        cleanup();
      },
    };
  } catch (error) {
    process.off('SIGINT', onSignal);
    child.kill('SIGKILL');
    cleanup();
    throw error;
  }
}

function waitForReady(child: ChildProcess): Promise<Extract<ChildReply, { type: 'ready' }>> {
  return new Promise((resolve, reject) => {
    const onMessage = (reply: ChildReply) => {
      if (reply.type !== 'ready') return;
      child.off('exit', onExit);
      child.off('message', onMessage);
      resolve(reply);
    };
    const onExit = (code: number | null) => reject(new Error(`bench server exited before it was ready (code ${code})`));
    child.on('message', onMessage);
    child.once('exit', onExit);
  });
}

type CommandBody = ParentCommand extends infer C ? C extends ParentCommand ? Omit<C, 'id'> : never : never;

function createCaller(child: ChildProcess): (command: CommandBody) => Promise<unknown> {
  let nextId = 1;
  const pending = new Map<number, { resolve: (value: unknown) => void; reject: (error: Error) => void }>();
  child.on('message', (reply: ChildReply) => {
    if (reply.type !== 'result') return;
    const waiter = pending.get(reply.id);
    if (!waiter) return;
    pending.delete(reply.id);
    if (reply.ok) waiter.resolve(reply.value);
    else waiter.reject(new Error(`in bench server: ${reply.error}`));
  });
  child.on('exit', (code) => {
    for (const waiter of pending.values()) waiter.reject(new Error(`bench server exited (code ${code})`));
    pending.clear();
  });
  return (command) => new Promise((resolve, reject) => {
    const id = nextId;
    nextId += 1;
    pending.set(id, { resolve, reject });
    child.send({ ...command, id } as ParentCommand);
  });
}

function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms).unref());
}
