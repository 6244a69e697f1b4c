import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AddressInfo } from 'node:net';
import { loadConfig, type DeepPartial } from '../../src/config/config.loader.js';
import type { Config } from '../../src/config/config.schema.js';
import { buildController, type Controller } from '../../src/controller.js';
import type { Clock } from '../../src/ports/clock.js';

export const TEST_API_KEY = 'test-key-0123456789abcdef0123456789abcdef';

export interface RunningController {
  controller: Controller;
  baseUrl: string;
  dataDir: string;
  api(method: string, path: string, body?: unknown): Promise<{ status: number; body: any }>;
  stop(): Promise<void>;
}

/** A real controller on an ephemeral port over a (new or given) data directory, with fast worker polling. */
export async function runController(options: { bridgeUrl: string; dataDir?: string; overrides?: DeepPartial<Config>; clock?: Clock }):
  Promise<RunningController> {
  const dataDir = options.dataDir ?? mkdtempSync(join(tmpdir(), 'memsvc-test-'));
  const config = loadConfig({
    file: '/nonexistent',
    env: {},
    overrides: {
      ...options.overrides,
      server: { data_dir: dataDir, ...options.overrides?.server },
      rate_limit: { enabled: false },
      bridge: { ...options.overrides?.bridge, url: options.bridgeUrl, start: false, timeout_ms: 5000 },
      embedding_worker: { poll_interval_ms: 20, max_backoff_ms: 200, ...options.overrides?.embedding_worker },
      // In process with the test (and often a bridge): their work would read as event-loop overload.
      admission: { max_event_loop_delay_ms: 0, ...options.overrides?.admission },
    },
  });
  const controller = await buildController({ config, apiKey: TEST_API_KEY, logger: false,
    ...(options.clock ? { clock: options.clock } : {}) });
  await controller.app.listen({ host: '127.0.0.1', port: 0 });
  const baseUrl = `http://127.0.0.1:${(controller.app.server.address() as AddressInfo).port}`;
  return {
    controller,
    baseUrl,
    dataDir,
    async api(method, path, body) {
      const response = await fetch(`${baseUrl}${path}`, {
        method,
        headers: { authorization: `Bearer ${TEST_API_KEY}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      const text = await response.text();
      return { status: response.status, body: text ? JSON.parse(text) : null };
    },
    stop: () => controller.close(),
  };
}

export const removeDir = (dir: string) => rmSync(dir, { recursive: true, force: true });

/** Polls until the condition holds (for background work), failing after the timeout. */
export async function eventually<T>(probe: () => Promise<T>, accept: (value: T) => boolean, timeoutMs = 15_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (accept(value)) return value;
    if (Date.now() > deadline) throw new Error(`condition not met within ${timeoutMs} ms; last value: ${JSON.stringify(value)}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}
