import { BurstyRateLimiter, RateLimiterMemory, RateLimiterRedis, RateLimiterRes } from 'rate-limiter-flexible';
import type { Redis } from 'ioredis';

export interface RateLimitSettings {
  requestsPerSecond: number;
  burstSize: number;
  /**
   * Shared counters in Redis: one key's limit holds across every replica.
   * While Redis is unreachable each process limits on its own (an in-memory
   * insurance limiter with the same settings), so requests are neither refused
   * nor let through unlimited.
   */
  redis?: Redis;
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
  const limiterOf = (keyPrefix: string, points: number, duration: number) => {
    const memory = new RateLimiterMemory({ keyPrefix, points, duration });
    if (!settings.redis) return memory;
    return new RateLimiterRedis({ storeClient: settings.redis, keyPrefix: `memsvc:rl:${keyPrefix}`, points, duration, insuranceLimiter: memory });
  };
  const steady = limiterOf('steady', steadyPoints, steadyWindowSeconds);
  const burst = limiterOf('burst', Math.max(1, burstPoints), BURST_REFILL_SECONDS);
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
