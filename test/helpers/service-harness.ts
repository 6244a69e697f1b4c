import { spawn, type ChildProcess } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { AddressInfo } from 'node:net';
import type { FastifyInstance, FastifyServerOptions } from 'fastify';
import { loadConfig, type DeepPartial } from '../../src/config/config.loader.js';
import type { Config } from '../../src/config/config.schema.js';
import { buildBridgeApp } from '../../src/bridge/bridge.app.js';
import { buildController, type Controller } from '../../src/controller.js';
import type { Clock } from '../../src/ports/clock.js';
import { FakeEmbeddingProvider } from './fakes.js';
import { unusedPort } from './fake-bridge.js';
import { waitFor } from './wait-for.js';

/**
 * The one way tests, scripts and benchmarks start memsvc: the controller in
 * this process on an ephemeral loopback port (startService), or src/main.ts
 * as a real child process (spawnService). Both answer through the same api().
 */

export const TEST_API_KEY = 'test-key-0123456789abcdef0123456789abcdef';
/** One GloVe cache for every local run, so the 300 MB conversion happens once per machine. */
export const SHARED_MODEL_CACHE = fileURLToPath(new URL('../../.cache/models', import.meta.url));
const MAIN = fileURLToPath(new URL('../../src/main.ts', import.meta.url));

export interface ApiResponse<T = any> {
  status: number;
  headers: Headers;
  text: string;
  /** The parsed body when it is JSON, otherwise undefined. */
  body: T;
}

export interface ServiceClient {
  baseUrl: string;
  apiKey: string;
  /** An authenticated call; a string body is sent as is (for malformed JSON), anything else JSON-encoded. */
  api<T = any>(method: string, path: string, body?: unknown, headers?: Record<string, string>): Promise<ApiResponse<T>>;
  /** A call without the API key: full control over headers and body. */
  raw<T = any>(method: string, path: string, init?: { body?: string; headers?: Record<string, string> }): Promise<ApiResponse<T>>;
  /**
   * Resolves once every stored message is embedded and searchable; with `inGraph`, once none waits for the
   * vector graph either (waiting vectors are searchable by an exact scan, which a benchmark should not time).
   */
  waitForEmbeddings(timeoutMs?: number, options?: { inGraph?: boolean }): Promise<void>;
}

export interface ServiceOptions {
  /** Reuse a data dir (a restart on the same database); it is then the caller's to remove. Default: a fresh temp dir. */
  dataDir?: string;
  overrides?: DeepPartial<Config>;
  apiKey?: string;
  clock?: Clock;
  /**
   * Where vectors come from. Default: a deterministic provider in this process, with the embedding worker off
   * unless the overrides turn it on. `{ url }`: a bridge over HTTP (e.g. FakeBridge), the worker polling fast.
   * 'builtin': the real bridge app with its builtin model in this process (slow to start; for scripts and benchmarks).
   */
  bridge?: { url: string } | 'builtin';
  logger?: FastifyServerOptions['logger'];
}

export interface RunningService extends ServiceClient {
  dataDir: string;
  controller: Controller;
  /** The bridge's URL, when there is one. */
  bridgeUrl?: string;
  /** Closes the service (and an in-process bridge); a data dir the harness made is removed unless keepData. */
  stop(options?: { keepData?: boolean }): Promise<void>;
  /** Stops the in-process builtin bridge alone (the controller keeps running). */
  stopBridge(): Promise<void>;
}

/** The controller built from config overrides, listening on an ephemeral loopback port. */
export async function startService(options: ServiceOptions = {}): Promise<RunningService> {
  const ownsDataDir = options.dataDir === undefined;
  const dataDir = options.dataDir ?? mkdtempSync(join(tmpdir(), 'memsvc-test-'));
  const apiKey = options.apiKey ?? TEST_API_KEY;
  let bridgeApp: FastifyInstance | undefined;
  let bridgeUrl: string | undefined;
  if (options.bridge === 'builtin') {
    const base = loadConfig({ file: '/nonexistent', env: {}, overrides: options.overrides });
    bridgeApp = await buildBridgeApp({ ...base.bridge, cacheDir: SHARED_MODEL_CACHE }, { logLevel: 'warn' });
    bridgeUrl = await bridgeApp.listen({ host: '127.0.0.1', port: 0 });
  } else if (options.bridge) {
    bridgeUrl = options.bridge.url;
  }
  const { overrides = {} } = options;
  const config = loadConfig({
    file: '/nonexistent',
    env: {},
    overrides: {
      ...overrides,
      server: { ...overrides.server, data_dir: dataDir },
      // Rate limiting stays on (its headers are part of the contract), with a ceiling tests never reach.
      rate_limit: { requests_per_second: 100_000, burst_size: 200_000, ...overrides.rate_limit },
      // The server shares this process's event loop with the test (and maybe a bridge): their work would read as overload.
      admission: { max_event_loop_delay_ms: 0, ...overrides.admission },
      ...(options.bridge === 'builtin' ? { bridge: { ...overrides.bridge, url: bridgeUrl, start: false } }
        // A stand-in bridge answers at once: a short timeout and a fast-polling worker keep tests quick.
        : options.bridge ? {
          bridge: { timeout_ms: 5000, ...overrides.bridge, url: bridgeUrl, start: false },
          embedding_worker: { poll_interval_ms: 20, max_backoff_ms: 200, ...overrides.embedding_worker },
        }
        // Without a bridge, embedding would race the tests: off unless asked for.
        : { embedding_worker: { enabled: false, ...overrides.embedding_worker } }),
    },
  });
  const controller = await buildController({
    config, apiKey, logger: options.logger ?? false,
    ...(bridgeUrl ? {} : { embeddingProvider: new FakeEmbeddingProvider() }),
    // The in-process question embedder reads the bridge's model cache.
    ...(options.bridge === 'builtin' ? { modelCacheDir: SHARED_MODEL_CACHE } : {}),
    ...(options.clock ? { clock: options.clock } : {}),
  });
  await controller.app.listen({ host: '127.0.0.1', port: 0 });
  // Warm, as a test expects a service to be: the schemas that would compile in the background once listening.
  await controller.app.schemaCompilation.compileAll();
  const baseUrl = `http://127.0.0.1:${(controller.app.server.address() as AddressInfo).port}`;
  // The builtin model loads (or is first built, ~300 MB) on first use: embedding may take minutes.
  const embeddingTimeoutMs = options.bridge === 'builtin' ? 30 * 60_000 : 30_000;
  return Object.assign(serviceClient(baseUrl, apiKey, embeddingTimeoutMs), {
    dataDir,
    controller,
    ...(bridgeUrl ? { bridgeUrl } : {}),
    async stopBridge() {
      await bridgeApp?.close();
    },
    async stop({ keepData = false } = {}) {
      await controller.close();
      await bridgeApp?.close();
      if (ownsDataDir && !keepData) removeDir(dataDir);
    },
  });
}

export interface ServiceProcessOptions {
  dataDir: string;
  /** Listen on this port (e.g. to restart where clients expect it); default a free one. */
  port?: number;
  /** MEMSVC_* settings on top of the harness's (config file, data dir, port, key, log level). */
  env?: Record<string, string>;
  /** Default TEST_API_KEY; null starts without one, so the service makes its own (set `apiKey` on the result once it is read). */
  apiKey?: string | null;
  /** Run under this umask (e.g. '000'), through /bin/sh. */
  umask?: string;
}

export interface ServiceProcess extends ServiceClient {
  child: ChildProcess;
  port: number;
  /** Everything the process wrote to stdout and stderr so far. */
  output(): string;
  /** Resolves with the exit code (null after a signal) once the process has exited. */
  exited: Promise<number | null>;
}

/** src/main.ts as its own process (as `npm start` runs it); resolves once its HTTP port answers /health. */
export async function spawnService(options: ServiceProcessOptions): Promise<ServiceProcess> {
  const port = options.port ?? await unusedPort();
  const env: NodeJS.ProcessEnv = {
    ...process.env, MEMSVC_CONFIG: '/nonexistent', MEMSVC_DATA_DIR: options.dataDir, MEMSVC_PORT: String(port),
    MEMSVC_SERVER_LOG_LEVEL: 'warn', ...options.env,
  };
  if (options.apiKey === null) delete env.MEMSVC_API_KEY;
  else env.MEMSVC_API_KEY = options.apiKey ?? TEST_API_KEY;
  const child = options.umask === undefined
    ? spawn(process.execPath, ['--import', 'tsx', MAIN], { env, stdio: ['ignore', 'pipe', 'pipe'] })
    : spawn('/bin/sh', ['-c', `umask ${options.umask}; exec "${process.execPath}" --import tsx "${MAIN}"`], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout!.on('data', (chunk) => { output += chunk; });
  child.stderr!.on('data', (chunk) => { output += chunk; });
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const baseUrl = `http://127.0.0.1:${port}`;
  const gone = new AbortController();
  void exited.then((code) => gone.abort(new Error(`memsvc exited (code ${code}) before answering; its output:\n${output}`)));
  await waitFor(async () => (await fetch(`${baseUrl}/health`)).status,
    { what: `memsvc (src/main.ts) to answer /health on port ${port}`, timeoutMs: 60_000, intervalMs: 50, signal: gone.signal });
  return Object.assign(serviceClient(baseUrl, options.apiKey ?? TEST_API_KEY), { child, port, output: () => output, exited });
}

function serviceClient(baseUrl: string, apiKey: string, embeddingTimeoutMs = 30_000): ServiceClient {
  const send = async (method: string, path: string, body: string | undefined, headers: Record<string, string>) => {
    const response = await fetch(`${baseUrl}${path}`, { method, headers, body });
    const text = await response.text();
    const isJson = /\bjson\b/.test(response.headers.get('content-type') ?? '');
    return { status: response.status, headers: response.headers, text, body: isJson && text !== '' ? JSON.parse(text) : undefined };
  };
  const client: ServiceClient = {
    baseUrl,
    apiKey,
    api: (method, path, body, headers = {}) => {
      const encoded = body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body);
      return send(method, path, encoded, {
        authorization: `Bearer ${client.apiKey}`,
        ...(encoded !== undefined ? { 'content-type': 'application/json' } : {}),
        ...headers,
      });
    },
    raw: (method, path, init = {}) => send(method, path, init.body, init.headers ?? {}),
    async waitForEmbeddings(timeoutMs = embeddingTimeoutMs, options = {}) {
      await waitFor(() => client.api('GET', '/api/v1/embeddings/status'), {
        what: options.inGraph ? 'every stored message to be embedded and in the vector graph' : 'every stored message to be embedded and searchable',
        until: (response) => response.status === 200 && response.body.searchable === true &&
          (!options.inGraph || (response.body.graph_backlog ?? 0) === 0),
        timeoutMs,
        // A bench's long wait looks once a second: each look is work for the service it measures (on PostgreSQL, a
        // count of every conversation, and of the backlog when it is small).
        intervalMs: timeoutMs > 60_000 ? 1000 : 25,
      });
    },
  };
  return client;
}

export const removeDir = (dir: string) => rmSync(dir, { recursive: true, force: true });

/** Gives a data dir the word vectors other suites built, when there are some (else its bridge builds them: ~20 s). */
export function seedModelCache(dataDir: string): void {
  const cached = join(SHARED_MODEL_CACHE, 'glove-sg-100d.v1.bin');
  if (!existsSync(cached)) return;
  mkdirSync(join(dataDir, 'cache'), { recursive: true });
  copyFileSync(cached, join(dataDir, 'cache', 'glove-sg-100d.v1.bin'));
}
