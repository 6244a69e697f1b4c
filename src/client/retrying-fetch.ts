import { retryAfterMs } from './client-errors.js';

export interface RetryPolicy {
  /** Retries after a 429 (default 3); 0 turns retrying off. */
  maxRetries: number;
  /** A longer Retry-After is not waited for: the 429 is returned (default 30 s). */
  maxDelayMs: number;
  /** Without Retry-After: base * 2^attempt (default 500 ms). */
  baseDelayMs: number;
}

export const DEFAULT_RETRY_POLICY: RetryPolicy = { maxRetries: 3, maxDelayMs: 30_000, baseDelayMs: 500 };

const sleep = (ms: number, signal?: AbortSignal | null) => new Promise<void>((resolve, reject) => {
  const timer = setTimeout(resolve, ms);
  signal?.addEventListener('abort', () => { clearTimeout(timer); reject(signal.reason); }, { once: true });
});

/**
 * A fetch that answers a 429 by waiting as long as Retry-After says and sending the request again.
 * Only 429 is retried: the server refused it before doing anything, so a retry is always safe.
 */
export function retryingFetch(baseFetch: typeof fetch, policy: RetryPolicy): typeof fetch {
  return async (input, init) => {
    const request = new Request(input, init);
    for (let attempt = 0; ; attempt++) {
      const response = await baseFetch(request.clone());
      if (response.status !== 429 || attempt >= policy.maxRetries) return response;
      const delay = retryAfterMs(response.headers.get('retry-after')) ?? policy.baseDelayMs * 2 ** attempt;
      if (delay > policy.maxDelayMs) return response;
      await response.body?.cancel();
      await sleep(delay, request.signal);
    }
  };
}
