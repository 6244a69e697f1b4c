import type { Clock } from '../../src/ports/clock.js';
import { eventually, type RunningController } from '../helpers/controller-harness.js';

/** A clock that moves only when told to. */
export class TestClock implements Clock {
  private current: number;
  constructor(start: string) {
    this.current = Date.parse(start);
  }
  now(): Date {
    return new Date(this.current);
  }
  set(at: string): void {
    this.current = Date.parse(at);
  }
  advance(ms: number): void {
    this.current += ms;
  }
}

export const HOUR = 3_600_000;
export const DAY = 24 * HOUR;
export const UNKNOWN_ID = '6f1c2b8e-4d3a-4e5f-9a7b-0c1d2e3f4a5b';

export async function create(server: RunningController, body: Record<string, unknown>): Promise<string> {
  const response = await server.api('POST', '/api/v1/conversations', { folder: '/', messages: [], ...body });
  if (response.status !== 201) throw new Error(`create failed: ${response.status} ${JSON.stringify(response.body)}`);
  return response.body.id as string;
}

export const waitForEmbeddings = (server: RunningController) =>
  eventually(() => server.api('GET', '/api/v1/embeddings/status'), (r) => r.body?.searchable === true);

/** A raw call: any content type, the body as text. */
export async function rawCall(server: RunningController, method: string, path: string,
  body?: string, contentType = 'application/json') {
  const response = await fetch(`${server.baseUrl}${path}`, {
    method,
    headers: { authorization: 'Bearer test-key-0123456789abcdef0123456789abcdef',
      ...(body !== undefined ? { 'content-type': contentType } : {}) },
    body,
  });
  return { status: response.status, headers: response.headers, text: await response.text() };
}
