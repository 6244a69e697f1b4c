import { setTimeout as sleep } from 'node:timers/promises';
import type { EmbeddingProvider } from '../ports/embedding-provider.js';

export interface BridgeReturnOptions {
  /** First wait between probes; doubles up to maxDelayMs. */
  minDelayMs: number;
  maxDelayMs: number;
  /** A probe without an answer within this counts as the bridge still being away. */
  probeTimeoutMs: number;
  /** The failure that started the watch already showed the bridge unreachable. */
  seenDown: boolean;
  signal: AbortSignal;
}

/**
 * Watches the bridge's /health after a failed batch. Resolves true when the
 * bridge answers again after having been away (unreachable or unhealthy), so the
 * worker can resume at once instead of at the end of its backoff; false when
 * the watch is aborted, or when the bridge was never away (then the batch failed
 * for another reason, and probing faster would only hammer it: the backoff rules).
 */
export async function bridgeReturned(provider: EmbeddingProvider, options: BridgeReturnOptions): Promise<boolean> {
  let seenDown = options.seenDown;
  let delay = options.minDelayMs;
  for (;;) {
    try {
      await sleep(delay, undefined, { signal: options.signal, ref: false });
    } catch {
      return false;
    }
    try {
      await answerWithin(provider.health(), options.probeTimeoutMs);
      return seenDown;
    } catch {
      seenDown = true;
    }
    if (options.signal.aborted) return false;
    delay = Math.min(options.maxDelayMs, delay * 2);
  }
}

function answerWithin<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}
