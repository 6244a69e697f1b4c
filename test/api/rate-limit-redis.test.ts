import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import { unusedPort } from '../helpers/fake-bridge.js';
import { type RunningService, startService } from '../helpers/service-harness.js';

const REDIS_URL = process.env.MEMSVC_TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';

async function redisAvailable(): Promise<boolean> {
  const probe = new Redis(REDIS_URL, { lazyConnect: true, maxRetriesPerRequest: 0, connectTimeout: 1000, retryStrategy: () => null });
  try {
    await probe.connect();
    return (await probe.ping()) === 'PONG';
  } catch {
    return false;
  } finally {
    probe.disconnect();
  }
}

const available = await redisAvailable();
const skip = available ? false : `no Redis at ${REDIS_URL} (set MEMSVC_TEST_REDIS_URL): the shared rate limit is not tested`;
if (skip) console.log(`# SKIP ${skip}`);

describe('rate limit shared across replicas through Redis', { skip }, () => {
  // A key of its own per run, so counters left in Redis by another run never count here.
  const apiKey = `msk_test_${randomUUID()}`;
  const limited = { enabled: true, store: 'redis' as const, redis_url: REDIS_URL, requests_per_second: 2, burst_size: 4 };
  let a: RunningService;
  let b: RunningService;
  // Each replica is stopped even when the other failed to start, so a failed start cannot hold the run open.
  const started: RunningService[] = [];
  const replica = async () => {
    const service = await startService({ apiKey, overrides: { rate_limit: limited } });
    started.push(service);
    return service;
  };
  before(async () => { [a, b] = await Promise.all([replica(), replica()]); });
  after(async () => { await Promise.all(started.map((service) => service.stop())); });

  it('one key\'s requests through two replicas draw on one bucket', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 3; i += 1) statuses.push((await a.api('GET', '/api/v1/conversations')).status);
    for (let i = 0; i < 3; i += 1) statuses.push((await b.api('GET', '/api/v1/conversations')).status);
    assert.deepEqual(statuses.slice(0, 4), [200, 200, 200, 200], 'within the burst of 4');
    assert.equal(statuses.at(-1), 429, `replica b saw replica a's requests: ${statuses.join(',')}`);
    const refused = await b.api('GET', '/api/v1/conversations');
    assert.equal(refused.status, 429);
    assert.ok(Number(refused.headers.get('retry-after')) >= 1);
    assert.equal(refused.body.code, 'RATE_LIMITED');
  });
});

describe('rate limit with Redis unreachable', () => {
  let server: RunningService;
  before(async () => {
    server = await startService({
      overrides: { rate_limit: { enabled: true, store: 'redis', redis_url: `redis://127.0.0.1:${await unusedPort()}`, requests_per_second: 2, burst_size: 3 } },
    });
  });
  after(() => server.stop());

  it('keeps serving, and limiting, on the in-memory insurance limiter', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 6; i += 1) statuses.push((await server.api('GET', '/api/v1/conversations')).status);
    assert.ok(statuses.slice(0, 3).every((status) => status === 200), statuses.join(','));
    assert.equal(statuses.at(-1), 429, 'the limit still holds without Redis');
    assert.ok(statuses.every((status) => status === 200 || status === 429));
  });
});
