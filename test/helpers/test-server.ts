import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AddressInfo } from 'node:net';
import { loadConfig, type DeepPartial } from '../../src/config/config.loader.js';
import type { Config } from '../../src/config/config.schema.js';
import { buildController, type Controller } from '../../src/controller.js';
import type { Clock } from '../../src/ports/clock.js';
import type { EmbeddingBatch, EmbeddingProvider } from '../../src/ports/embedding-provider.js';

export const TEST_API_KEY = 'test-key-0123456789abcdef0123456789abcdef';

export interface ApiResponse<T = any> {
  status: number;
  headers: Headers;
  text: string;
  /** The parsed body when it is JSON, otherwise undefined. */
  json: T;
}

export interface StartOptions {
  /** Reuse a data dir (e.g. to restart on the same database); default a fresh mkdtemp. */
  dataDir?: string;
  overrides?: DeepPartial<Config>;
  apiKey?: string;
  clock?: Clock;
}

export interface TestServer {
  baseUrl: string;
  dataDir: string;
  apiKey: string;
  controller: Controller;
  /** An authenticated JSON call; a string body is sent as is (for malformed JSON), anything else is JSON-encoded. */
  api<T = any>(method: string, path: string, body?: unknown, headers?: Record<string, string>): Promise<ApiResponse<T>>;
  /** A call without the default API key: full control over headers and body. */
  raw<T = any>(method: string, path: string, init?: { body?: string; headers?: Record<string, string> }): Promise<ApiResponse<T>>;
  /** Closes the controller; the data dir is removed unless keepData. */
  stop(options?: { keepData?: boolean }): Promise<void>;
}

/**
 * Builds a controller on a temp data dir and listens on an ephemeral port.
 * Rate limiting stays on (its headers are part of the contract) but with a
 * ceiling tests never reach, unless the overrides configure it.
 */
export async function startTestServer(options: StartOptions = {}): Promise<TestServer> {
  const dataDir = options.dataDir ?? await mkdtemp(join(tmpdir(), 'memsvc-test-'));
  const apiKey = options.apiKey ?? TEST_API_KEY;
  const overrides: DeepPartial<Config> = {
    ...options.overrides,
    server: { ...options.overrides?.server, data_dir: dataDir },
    rate_limit: { requests_per_second: 100_000, burst_size: 200_000, ...options.overrides?.rate_limit },
    // Embedding runs in the background; off by default so no test races it.
    embedding_worker: { enabled: false, ...options.overrides?.embedding_worker },
    // The server shares this process's event loop with the test's own work, which would read as overload.
    admission: { max_event_loop_delay_ms: 0, ...options.overrides?.admission },
  };
  const config = loadConfig({ file: '/nonexistent/memsvc.yaml', env: {}, overrides });
  const controller = await buildController({
    config, apiKey, logger: false, embeddingProvider: new FakeEmbeddingProvider(),
    ...(options.clock ? { clock: options.clock } : {}),
  });
  await controller.app.listen({ port: 0, host: '127.0.0.1' });
  const { port } = controller.app.server.address() as AddressInfo;
  const baseUrl = `http://127.0.0.1:${port}`;

  const send = async (method: string, path: string, body: string | undefined, headers: Record<string, string>) => {
    const response = await fetch(`${baseUrl}${path}`, { method, headers, body });
    const text = await response.text();
    const isJson = (response.headers.get('content-type') ?? '').includes('application/json');
    return { status: response.status, headers: response.headers, text, json: isJson && text !== '' ? JSON.parse(text) : undefined };
  };

  return {
    baseUrl,
    dataDir,
    apiKey,
    controller,
    api: (method, path, body, headers = {}) => {
      const encoded = body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body);
      return send(method, path, encoded, {
        authorization: `Bearer ${apiKey}`,
        ...(encoded !== undefined ? { 'content-type': 'application/json' } : {}),
        ...headers,
      });
    },
    raw: (method, path, init = {}) => send(method, path, init.body, init.headers ?? {}),
    stop: async ({ keepData = false } = {}) => {
      await controller.close();
      if (!keepData) await rm(dataDir, { recursive: true, force: true });
    },
  };
}

/** A minimal valid create body. */
export const conversationBody = (overrides: Record<string, unknown> = {}) => ({
  label: 'Test conversation',
  folder: '/work',
  messages: [
    { role: 'user', content: 'hello there' },
    { role: 'assistant', content: 'general kenobi' },
  ],
  ...overrides,
});

/** Creates a conversation and returns its id; fails loudly when the service refuses. */
export async function createConversation(server: TestServer, overrides: Record<string, unknown> = {}): Promise<string> {
  const response = await server.api('POST', '/api/v1/conversations', conversationBody(overrides));
  if (response.status !== 201) throw new Error(`create failed: ${response.status} ${response.text}`);
  return response.json.id as string;
}

/** A deterministic, always healthy stand-in for the bridge: a vector from character codes. */
export class FakeEmbeddingProvider implements EmbeddingProvider {
  readonly model = 'test-fake';
  readonly dimension = 8;
  async embed(texts: readonly string[]): Promise<EmbeddingBatch> {
    const vectors = texts.map((text) => {
      const vector = new Float32Array(this.dimension);
      for (let i = 0; i < text.length; i += 1) vector[i % this.dimension]! += text.charCodeAt(i);
      const norm = Math.hypot(...vector) || 1;
      return vector.map((value) => value / norm);
    });
    return { model: this.model, dimension: this.dimension, vectors };
  }
  async health() {
    return { model: this.model, dimension: this.dimension };
  }
}

/** A clock that only moves when told to, so timestamps are exact. */
export class ManualClock implements Clock {
  private current: number;
  constructor(start = '2025-01-01T00:00:00.000Z') {
    this.current = Date.parse(start);
  }
  now(): Date {
    return new Date(this.current);
  }
  advance(ms: number): string {
    this.current += ms;
    return this.now().toISOString();
  }
}

export const NIL_UUID = '00000000-0000-0000-0000-000000000000';
export const UNKNOWN_ID = '6f1c2b8e-4d3a-4e5f-9a7b-0c1d2e3f4a5b';
