import { UpstreamError } from '../domain/upstream-error.js';

/**
 * A small JSON-over-HTTP client for upstream model servers: one timeout per
 * attempt, retries with exponential backoff and full jitter on retryable
 * failures (network errors, 408, 429 honoring Retry-After, 5xx), and typed
 * UpstreamErrors for everything else.
 */
export interface UpstreamClientOptions {
  /** Name used in errors and logs: "ollama", "openai". */
  provider: string;
  /** Base URL without a trailing slash, e.g. http://127.0.0.1:11434 */
  baseUrl: string;
  /** Sent as `Authorization: Bearer <key>` when non-empty. */
  apiKey?: string;
  timeoutMs: number;
  maxRetries: number;
  /** First backoff delay; doubles each retry. Default 250 ms. */
  retryBaseDelayMs?: number;
  /** Largest backoff delay and largest honoured Retry-After. Default 10 s. */
  maxRetryDelayMs?: number;
  fetch?: typeof fetch;
  /** Injected for deterministic tests; default Math.random. */
  random?: () => number;
  /** The wait between attempts; injected by tests to see the backoff without waiting it out. */
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
}

export interface RequestOptions {
  /** Aborts the call (e.g. when our own client disconnects). */
  signal?: AbortSignal;
  /** Override of the client-wide timeout, e.g. a short one for health checks. */
  timeoutMs?: number;
  /** Override of the client-wide retry count (0 for health checks). */
  maxRetries?: number;
}

export interface UpstreamClient {
  readonly provider: string;
  readonly baseUrl: string;
  postJson<T = unknown>(path: string, body: unknown, options?: RequestOptions): Promise<T>;
  getJson<T = unknown>(path: string, options?: RequestOptions): Promise<T>;
  /**
   * POSTs and returns the open response once the upstream has answered 2xx
   * with headers; the timeout covers only the wait for those headers.
   * Used for SSE pass-through.
   */
  postStream(path: string, body: unknown, options?: RequestOptions): Promise<Response>;
}

const MAX_ERROR_BODY_CHARS = 2000;

export function createUpstreamClient(options: UpstreamClientOptions): UpstreamClient {
  const baseUrl = options.baseUrl.replace(/\/+$/, '');
  const doFetch = options.fetch ?? globalThis.fetch;
  const random = options.random ?? Math.random;
  const pause = options.sleep ?? sleep;
  const baseDelay = options.retryBaseDelayMs ?? 250;
  const maxDelay = options.maxRetryDelayMs ?? 10_000;

  function headers(hasBody: boolean): Record<string, string> {
    const h: Record<string, string> = { accept: 'application/json' };
    if (hasBody) h['content-type'] = 'application/json';
    if (options.apiKey) h.authorization = `Bearer ${options.apiKey}`;
    return h;
  }

  /** One attempt: resolves with a 2xx Response (body unread) or throws an UpstreamError. */
  async function attempt(method: string, url: string, body: string | undefined, timeoutMs: number, signal?: AbortSignal, readBody = true): Promise<{ response: Response; text?: string }> {
    const timeout = new AbortController();
    const timer = setTimeout(() => timeout.abort(), timeoutMs);
    const onCallerAbort = (): void => timeout.abort();
    signal?.addEventListener('abort', onCallerAbort, { once: true });
    try {
      let response: Response;
      try {
        response = await doFetch(url, { method, headers: headers(body !== undefined), body, signal: timeout.signal });
      } catch (err) {
        throw failureFromFetchError(err, url, timeoutMs, signal);
      }
      if (!response.ok) {
        const text = await response.text().catch(() => '');
        throw new UpstreamError({
          provider: options.provider,
          kind: 'http',
          url,
          status: response.status,
          body: text.slice(0, MAX_ERROR_BODY_CHARS),
          retryAfterMs: parseRetryAfter(response.headers.get('retry-after')),
          message: `HTTP ${response.status}${describeErrorBody(text)}`,
        });
      }
      if (!readBody) return { response };
      let text: string;
      try {
        text = await response.text();
      } catch (err) {
        throw failureFromFetchError(err, url, timeoutMs, signal);
      }
      return { response, text };
    } finally {
      clearTimeout(timer);
      signal?.removeEventListener('abort', onCallerAbort);
    }
  }

  function failureFromFetchError(err: unknown, url: string, timeoutMs: number, signal?: AbortSignal): UpstreamError {
    if (err instanceof UpstreamError) return err;
    if (signal?.aborted) {
      return new UpstreamError({ provider: options.provider, kind: 'aborted', url, message: 'request aborted by caller', cause: err });
    }
    if ((err as Error)?.name === 'AbortError') {
      return new UpstreamError({ provider: options.provider, kind: 'timeout', url, message: `no response within ${timeoutMs} ms`, cause: err });
    }
    const cause = (err as { cause?: { code?: string; message?: string } })?.cause;
    const detail = cause?.code ?? cause?.message ?? (err as Error)?.message ?? String(err);
    return new UpstreamError({ provider: options.provider, kind: 'network', url, message: `${detail} (${url})`, cause: err });
  }

  async function withRetries<T>(run: () => Promise<T>, request: RequestOptions | undefined): Promise<T> {
    const retries = request?.maxRetries ?? options.maxRetries;
    for (let attemptNo = 0; ; attemptNo++) {
      if (request?.signal?.aborted) {
        throw new UpstreamError({ provider: options.provider, kind: 'aborted', url: baseUrl, message: 'request aborted by caller' });
      }
      try {
        return await run();
      } catch (err) {
        if (!(err instanceof UpstreamError) || !repeatNow(err) || attemptNo >= retries) throw err;
        const backoff = Math.min(maxDelay, baseDelay * 2 ** attemptNo);
        // Full jitter: anywhere in [backoff/2, backoff]; Retry-After wins when larger.
        const jittered = backoff / 2 + random() * (backoff / 2);
        const delay = Math.min(maxDelay, Math.max(jittered, err.retryAfterMs ?? 0));
        await pause(delay, request?.signal);
      }
    }
  }

  function urlOf(path: string): string {
    return `${baseUrl}${path.startsWith('/') ? path : `/${path}`}`;
  }

  async function json<T>(method: string, path: string, body: unknown, request?: RequestOptions): Promise<T> {
    const url = urlOf(path);
    const payload = body === undefined ? undefined : JSON.stringify(body);
    const timeoutMs = request?.timeoutMs ?? options.timeoutMs;
    return withRetries(async () => {
      const { text } = await attempt(method, url, payload, timeoutMs, request?.signal);
      try {
        return JSON.parse(text ?? '') as T;
      } catch (err) {
        throw new UpstreamError({ provider: options.provider, kind: 'invalid_response', url, message: 'response body is not JSON', body: (text ?? '').slice(0, MAX_ERROR_BODY_CHARS), cause: err });
      }
    }, request);
  }

  return {
    provider: options.provider,
    baseUrl,
    postJson: (path, body, request) => json('POST', path, body, request),
    getJson: (path, request) => json('GET', path, undefined, request),
    async postStream(path, body, request) {
      const url = urlOf(path);
      const payload = JSON.stringify(body);
      const timeoutMs = request?.timeoutMs ?? options.timeoutMs;
      return withRetries(async () => {
        // The per-attempt timer in attempt() is cleared once headers arrive, but its
        // AbortController also ends the body stream; so stream with a signal of our own.
        const streamAbort = new AbortController();
        const onCallerAbort = (): void => streamAbort.abort();
        request?.signal?.addEventListener('abort', onCallerAbort, { once: true });
        const timer = setTimeout(() => streamAbort.abort(), timeoutMs);
        let response: Response;
        try {
          response = await doFetch(url, { method: 'POST', headers: { ...headers(true), accept: 'text/event-stream' }, body: payload, signal: streamAbort.signal });
        } catch (err) {
          clearTimeout(timer);
          request?.signal?.removeEventListener('abort', onCallerAbort);
          throw failureFromFetchError(err, url, timeoutMs, request?.signal);
        }
        clearTimeout(timer);
        if (!response.ok) {
          request?.signal?.removeEventListener('abort', onCallerAbort);
          const text = await response.text().catch(() => '');
          throw new UpstreamError({
            provider: options.provider, kind: 'http', url, status: response.status,
            body: text.slice(0, MAX_ERROR_BODY_CHARS),
            retryAfterMs: parseRetryAfter(response.headers.get('retry-after')),
            message: `HTTP ${response.status}${describeErrorBody(text)}`,
          });
        }
        return response;
      }, request);
    },
  };
}

/**
 * Retryable failures are repeated within the call, except a timeout: that attempt
 * already spent the whole timeout_ms, and repeating it would multiply the caller's
 * wait. The caller (the controller's worker, a client) may still try again later.
 */
const repeatNow = (error: UpstreamError): boolean => error.retryable && error.kind !== 'timeout';

/** Retry-After as milliseconds: delta-seconds or an HTTP date. */
export function parseRetryAfter(value: string | null, now: number = Date.now()): number | undefined {
  if (value == null || value.trim() === '') return undefined;
  const seconds = Number(value);
  if (Number.isFinite(seconds)) return Math.max(0, seconds * 1000);
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

/** A short, human-readable tail for an error body: OpenAI/Ollama `error` fields or raw text. */
function describeErrorBody(text: string): string {
  if (!text) return '';
  try {
    const parsed = JSON.parse(text) as { error?: unknown; message?: unknown };
    const e = parsed.error;
    const message = typeof e === 'string' ? e : typeof (e as { message?: unknown })?.message === 'string' ? (e as { message: string }).message : typeof parsed.message === 'string' ? parsed.message : undefined;
    if (message) return `: ${message.slice(0, 300)}`;
  } catch {
    // not JSON; fall through
  }
  return `: ${text.slice(0, 300)}`;
}

function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal?.aborted || ms <= 0) return resolve();
    const timer = setTimeout(done, ms);
    function done(): void {
      clearTimeout(timer);
      signal?.removeEventListener('abort', done);
      resolve();
    }
    signal?.addEventListener('abort', done, { once: true });
  });
}

/** Runs `embedBatch` over consecutive slices of at most `batchSize` texts, in order. */
export async function inBatches<T>(texts: readonly string[], batchSize: number, embedBatch: (batch: readonly string[]) => Promise<T[]>): Promise<T[]> {
  const out: T[] = [];
  const size = Math.max(1, Math.floor(batchSize));
  for (let i = 0; i < texts.length; i += size) {
    const batch = texts.slice(i, i + size);
    const result = await embedBatch(batch);
    if (result.length !== batch.length) {
      throw new Error(`expected ${batch.length} results for a batch, got ${result.length}`);
    }
    out.push(...result);
  }
  return out;
}
