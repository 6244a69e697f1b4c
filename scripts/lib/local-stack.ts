import { fileURLToPath } from 'node:url';
import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { loadConfig, type DeepPartial } from '../../src/config/config.loader.js';
import type { Config } from '../../src/config/config.schema.js';
import { buildBridgeApp } from '../../src/bridge/bridge.app.js';
import { buildController, type Controller } from '../../src/controller.js';
import type { Clock } from '../../src/ports/clock.js';

/** One GloVe cache for every local run, so the 300 MB conversion happens once per machine. */
export const SHARED_MODEL_CACHE = fileURLToPath(new URL('../../.cache/models', import.meta.url));

export interface LocalStack {
  baseUrl: string;
  bridgeUrl: string;
  apiKey: string;
  controller: Controller;
  bridge: FastifyInstance;
  api(method: string, path: string, body?: unknown): Promise<{ status: number; body: unknown }>;
  waitForEmbeddings(timeoutMs?: number): Promise<void>;
  close(): Promise<void>;
}

/** The real bridge and controller, in this process, on ephemeral loopback ports. */
export async function startLocalStack(options: { dataDir: string; overrides?: DeepPartial<Config>; clock?: Clock }):
  Promise<LocalStack> {
  const base = loadConfig({ file: '/nonexistent', env: {}, overrides: options.overrides });
  const bridge = await buildBridgeApp({ ...base.bridge, cacheDir: SHARED_MODEL_CACHE }, { logLevel: 'warn' });
  await bridge.listen({ host: '127.0.0.1', port: 0 });
  const bridgeUrl = `http://127.0.0.1:${(bridge.server.address() as AddressInfo).port}`;
  const config = loadConfig({
    file: '/nonexistent',
    env: {},
    overrides: {
      ...options.overrides,
      server: { ...options.overrides?.server, data_dir: options.dataDir, port: 0 },
      rate_limit: { enabled: false, ...options.overrides?.rate_limit },
      bridge: { ...options.overrides?.bridge, url: bridgeUrl, start: false },
      // The bridge embeds in this same process: its blocking work would read as event-loop overload.
      admission: { max_event_loop_delay_ms: 0, ...options.overrides?.admission },
    },
  });
  const apiKey = 'local-stack-key-0123456789abcdef0123456789';
  const controller = await buildController({
    config, apiKey, logger: { level: 'warn' }, ...(options.clock ? { clock: options.clock } : {}),
  });
  await controller.app.listen({ host: '127.0.0.1', port: 0 });
  const baseUrl = `http://127.0.0.1:${(controller.app.server.address() as AddressInfo).port}`;

  const api = async (method: string, path: string, body?: unknown) => {
    const response = await fetch(`${baseUrl}${path}`, {
      method,
      headers: { authorization: `Bearer ${apiKey}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await response.text();
    return { status: response.status, body: text ? (JSON.parse(text) as unknown) : null };
  };

  return {
    baseUrl, bridgeUrl, apiKey, controller, bridge, api,
    async waitForEmbeddings(timeoutMs = 30 * 60_000) {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const { pending, searchable } = (await api('GET', '/api/v1/embeddings/status')).body as
          { pending: number; searchable: boolean };
        if (searchable) return;
        if (Date.now() > deadline) throw new Error(`${pending} messages still pending after ${timeoutMs} ms`);
        await new Promise((resolve) => setTimeout(resolve, 200));
      }
    },
    async close() {
      await controller.close();
      await bridge.close();
    },
  };
}
