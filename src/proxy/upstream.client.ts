import { UpstreamError } from '../domain/upstream-error.js';

/**
 * The proxy's client for the upstream OpenAI-compatible server. One request per
 * call, never retried (a chat completion is not idempotent and the client can
 * retry itself). Failures before an answer are UpstreamErrors (timeout,
 * network), which the proxy answers as 504 and 502; an upstream HTTP error is
 * not a failure here, it is an answer passed back as it is.
 */
export interface UpstreamOptions {
  /** Base URL ending in /v1, e.g. http://127.0.0.1:11434/v1 */
  baseUrl: string;
  timeoutMs: number;
  fetch?: typeof fetch;
}

export interface UpstreamCall {
  method: 'GET' | 'POST';
  /** Under the base URL, e.g. /chat/completions */
  path: string;
  body?: unknown;
  /** The whole Authorization header value, if any. */
  authorization?: string;
  /** Stream the body: the timeout then covers the headers and each gap between chunks. */
  stream?: boolean;
  /** Aborted when our client goes away. */
  signal: AbortSignal;
}

export interface UpstreamAnswer {
  status: number;
  headers: Headers;
  /** The whole body, except for a 2xx streaming answer. */
  text?: string;
  /** The open body of a 2xx streaming answer; read it with readStream(). */
  stream?: ReadableStream<Uint8Array>;
  /** Ends the upstream request (a no-op once it is over). */
  abort(): void;
}

/** Raised when our own client went away: nothing is sent back. */
export class ClientGoneError extends Error {
  override readonly name = 'ClientGoneError';
}

export interface UpstreamClient {
  readonly baseUrl: string;
  readonly timeoutMs: number;
  call(call: UpstreamCall): Promise<UpstreamAnswer>;
  /**
   * The chunks of a streaming answer as they arrive. Throws ClientGoneError when
   * our client left, a timeout UpstreamError after timeoutMs without a chunk, a
   * network one when the upstream connection broke; any of these aborts the upstream request.
   */
  readStream(answer: UpstreamAnswer, signal: AbortSignal): AsyncGenerator<Uint8Array>;
}

export function createUpstreamClient(options: UpstreamOptions): UpstreamClient {
  const baseUrl = options.baseUrl.replace(/\/+$/, '');
  const doFetch = options.fetch ?? globalThis.fetch;
  const { timeoutMs } = options;

  async function call(request: UpstreamCall): Promise<UpstreamAnswer> {
    const url = `${baseUrl}${request.path}`;
    const abort = new AbortController();
    let timedOut = false;
    const timer = setTimeout(() => { timedOut = true; abort.abort(); }, timeoutMs);
    const onClientGone = () => abort.abort();
    if (request.signal.aborted) abort.abort();
    request.signal.addEventListener('abort', onClientGone, { once: true });
    const headers: Record<string, string> = { accept: request.stream ? 'text/event-stream' : 'application/json' };
    if (request.body !== undefined) headers['content-type'] = 'application/json';
    if (request.authorization) headers.authorization = request.authorization;
    let keepOpen = false;
    try {
      const response = await doFetch(url, {
        method: request.method,
        headers,
        body: request.body === undefined ? undefined : JSON.stringify(request.body),
        signal: abort.signal,
      });
      const end = () => abort.abort();
      if (request.stream && response.ok && response.body) {
        // The client-gone listener stays: leaving mid-stream must end the upstream request too.
        keepOpen = true;
        return { status: response.status, headers: response.headers, stream: response.body, abort: end };
      }
      return { status: response.status, headers: response.headers, text: await response.text(), abort: end };
    } catch (error) {
      if (request.signal.aborted) throw new ClientGoneError('client closed the connection', { cause: error });
      if (timedOut) throw timeoutError(url, timeoutMs, error);
      throw new UpstreamError({ provider: 'upstream', kind: 'network', url,
        message: `The upstream at ${url} cannot be reached: ${detail(error)}`, cause: error });
    } finally {
      clearTimeout(timer);
      if (!keepOpen) request.signal.removeEventListener('abort', onClientGone);
    }
  }

  async function* readStream(answer: UpstreamAnswer, signal: AbortSignal): AsyncGenerator<Uint8Array> {
    if (!answer.stream) return;
    const reader = answer.stream.getReader();
    let idle = false;
    let timer: NodeJS.Timeout | undefined;
    try {
      for (;;) {
        timer = setTimeout(() => { idle = true; answer.abort(); }, timeoutMs);
        let next: Awaited<ReturnType<typeof reader.read>>;
        try {
          next = await reader.read();
        } catch (error) {
          if (signal.aborted) throw new ClientGoneError('client closed the connection', { cause: error });
          if (idle) throw timeoutError(baseUrl, timeoutMs, error);
          throw new UpstreamError({ provider: 'upstream', kind: 'network', url: baseUrl,
            message: `The upstream stream broke off: ${detail(error)}`, cause: error });
        } finally {
          clearTimeout(timer);
        }
        if (signal.aborted) throw new ClientGoneError('client closed the connection');
        if (next.done) {
          if (idle) throw timeoutError(baseUrl, timeoutMs);
          return;
        }
        yield next.value;
      }
    } finally {
      // Ends the upstream request when we stop early (client gone, timeout, error).
      answer.abort();
      reader.releaseLock();
    }
  }

  return { baseUrl, timeoutMs, call, readStream };
}

function timeoutError(url: string, timeoutMs: number, cause?: unknown): UpstreamError {
  return new UpstreamError({ provider: 'upstream', kind: 'timeout', url, message: `The upstream did not answer within ${timeoutMs} ms`, cause });
}

function detail(error: unknown): string {
  const cause = (error as { cause?: { code?: string; message?: string } } | undefined)?.cause;
  return cause?.code ?? cause?.message ?? (error as Error | undefined)?.message ?? String(error);
}
