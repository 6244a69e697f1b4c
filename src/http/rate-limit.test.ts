import { describe, it, mock } from 'node:test';
import assert from 'node:assert/strict';
import { createRateLimiter } from './rate-limit.js';

describe('createRateLimiter', () => {
  it('allows the burst, then refuses with a retry delay', async () => {
    const limit = createRateLimiter({ requestsPerSecond: 2, burstSize: 3 });
    const decisions = [];
    for (let i = 0; i < 5; i += 1) decisions.push(await limit('key'));
    assert.deepEqual(decisions.map((d) => d.allowed), [true, true, true, false, false]);
    assert.deepEqual(decisions.map((d) => d.remaining), [1, 0, 0, 0, 0]);
    for (const decision of decisions) assert.equal(decision.limit, 2);
    const refused = decisions[3]!;
    assert.ok(!refused.allowed);
    assert.equal(refused.retryAfterSeconds, 1, 'the steady allowance comes back within a second');
    assert.equal(refused.resetSeconds, refused.retryAfterSeconds);
  });

  it('keeps a separate bucket per key', async () => {
    const limit = createRateLimiter({ requestsPerSecond: 1, burstSize: 1 });
    assert.equal((await limit('a')).allowed, true);
    assert.equal((await limit('a')).allowed, false);
    assert.equal((await limit('b')).allowed, true);
  });

  it('without burst headroom, allows exactly the per-second rate', async () => {
    const limit = createRateLimiter({ requestsPerSecond: 3, burstSize: 3 });
    const allowed = [];
    for (let i = 0; i < 4; i += 1) allowed.push((await limit('k')).allowed);
    assert.deepEqual(allowed, [true, true, true, false]);
  });

  it('a rate below one per second spreads requests over a longer window', async () => {
    const limit = createRateLimiter({ requestsPerSecond: 0.5, burstSize: 1 });
    assert.equal((await limit('k')).allowed, true);
    const refused = await limit('k');
    assert.equal(refused.allowed, false);
    assert.ok(!refused.allowed && refused.retryAfterSeconds === 2, 'one request per 2 s');
  });

  it('allows again once the window has passed, while the spent burst stays spent', async (t) => {
    // The limiter's windows follow Date.now() and its timers; a fake clock moves them without waiting.
    mock.timers.enable({ apis: ['Date', 'setTimeout'] });
    t.after(() => mock.timers.reset());
    const limit = createRateLimiter({ requestsPerSecond: 1, burstSize: 2 });
    assert.equal((await limit('k')).allowed, true);
    assert.equal((await limit('k')).allowed, true, 'the burst allowance');
    assert.equal((await limit('k')).allowed, false);
    mock.timers.tick(999);
    assert.equal((await limit('k')).allowed, false, 'still inside the first window');
    mock.timers.tick(2);
    assert.equal((await limit('k')).allowed, true, 'the steady allowance is back');
    assert.equal((await limit('k')).allowed, false, 'the burst pool refills more slowly');
  });
});
