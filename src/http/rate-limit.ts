import { BurstyRateLimiter, RateLimiterMemory, RateLimiterRes } from 'rate-limiter-flexible';

export interface RateLimitSettings {
  requestsPerSecond: number;
  burstSize: number;
}

export type RateLimitDecision =
  | { allowed: true; limit: number; remaining: number; resetSeconds: number }
  | { allowed: false; limit: number; remaining: 0; resetSeconds: number; retryAfterSeconds: number };

/** How long the extra burst allowance takes to refill; keeps the sustained rate close to requestsPerSecond. */
const BURST_REFILL_SECONDS = 10;

/**
 * A token bucket in the shape rate-limiter-flexible offers it: a steady
 * allowance of requestsPerSecond per second plus a burst pool of
 * (burstSize - requestsPerSecond) drawn on only when the steady one is spent.
 */
export function createRateLimiter(settings: RateLimitSettings): (key: string) => Promise<RateLimitDecision> {
  // A rate below 1/s is one request per window of several seconds (0.5/s: one every 2 s), not one per second.
  const steadyWindowSeconds = settings.requestsPerSecond >= 1 ? 1 : Math.ceil(1 / settings.requestsPerSecond);
  const steadyPoints = Math.max(1, Math.floor(settings.requestsPerSecond * steadyWindowSeconds));
  const burstPoints = Math.max(0, settings.burstSize - steadyPoints);
  const steady = new RateLimiterMemory({ keyPrefix: 'steady', points: steadyPoints, duration: steadyWindowSeconds });
  const burst = new RateLimiterMemory({ keyPrefix: 'burst', points: Math.max(1, burstPoints), duration: BURST_REFILL_SECONDS });
  const limiter = burstPoints > 0 ? new BurstyRateLimiter(steady, burst) : steady;
  // Remaining counts the steady allowance of the current window, so Limit is that allowance too.
  const limit = steadyPoints;

  return async (key) => {
    try {
      const result = await limiter.consume(key);
      return { allowed: true, limit, remaining: Math.max(0, result.remainingPoints), resetSeconds: toSeconds(result.msBeforeNext) };
    } catch (rejection) {
      if (!(rejection instanceof RateLimiterRes)) throw rejection;
      const wait = toSeconds(rejection.msBeforeNext);
      return { allowed: false, limit, remaining: 0, resetSeconds: wait, retryAfterSeconds: wait };
    }
  };
}

const toSeconds = (ms: number) => Math.max(1, Math.ceil(ms / 1000));
