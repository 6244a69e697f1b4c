import { retryAfterMs } from './client-errors.js';

export interface RetryPolicy {
  /** Retries after a 429 or a shed 503 (default 3); 0 turns retrying off. */
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
 * Answers the server gives before doing anything, so sending the request again is always safe:
 * 429 (rate limited) and 503 with code OVERLOADED (shed by admission control, with Retry-After).
 * Any other 503 (an upstream down, storage full) may come from inside a handler: it is returned.
 */
async function refusedBeforeWork(response: Response): Promise<boolean> {
  if (response.status === 429) return true;
  if (response.status !== 503 || !response.headers.has('retry-after')) return false;
  try {
    const body = await response.clone().json() as { code?: unknown };
    return body.code === 'OVERLOADED';
  } catch {
    return false;
  }
}

/** A fetch that answers a refusal-before-work by waiting as long as Retry-After says and sending the request again. */
export function retryingFetch(baseFetch: typeof fetch, policy: RetryPolicy): typeof fetch {
  return async (input, init) => {
    const request = new Request(input, init);
    for (let attempt = 0; ; attempt++) {
      const response = await baseFetch(request.clone());
      if (attempt >= policy.maxRetries || !(await refusedBeforeWork(response))) return response;
      const delay = retryAfterMs(response.headers.get('retry-after')) ?? policy.baseDelayMs * 2 ** attempt;
      if (delay > policy.maxDelayMs) return response;
      await response.body?.cancel();
      await sleep(delay, request.signal);
    }
  };
}
