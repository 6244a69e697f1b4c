import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { waitFor } from '../helpers/wait-for.js';
import { type RunningService, startService } from '../helpers/service-harness.js';
import { countConversations } from '../helpers/fixtures.js';

const UNAUTHORIZED = { error: 'Invalid or missing API key', code: 'UNAUTHORIZED' };

describe('authentication', () => {
  let server: RunningService;
  before(async () => { server = await startService(); });
  after(() => server.stop());

  const list = (headers: Record<string, string>) => server.raw('GET', '/api/v1/conversations', { headers });

  it('refuses a request without a key', async () => {
    const response = await list({});
    assert.equal(response.status, 401);
    assert.deepEqual(response.body, UNAUTHORIZED);
  });

  it('refuses a wrong key in either header form', async () => {
    for (const headers of <Array<Record<string, string>>>[
      { authorization: 'Bearer wrong-key' },
      { authorization: `Bearer ${server.apiKey}x` },
      { authorization: `Bearer ${server.apiKey.slice(0, -1)}` },
      { 'x-api-key': 'wrong-key' },
      { authorization: `Basic ${server.apiKey}` },
      { authorization: server.apiKey },
      { authorization: 'Bearer ' },
    ]) {
      const response = await list(headers);
      assert.equal(response.status, 401, JSON.stringify(headers));
      assert.deepEqual(response.body, UNAUTHORIZED);
    }
  });

  it('accepts Authorization: Bearer and X-API-Key', async () => {
    assert.equal((await list({ authorization: `Bearer ${server.apiKey}` })).status, 200);
    assert.equal((await list({ authorization: `bearer  ${server.apiKey}` })).status, 200, 'the scheme is case-insensitive');
    assert.equal((await list({ 'x-api-key': server.apiKey })).status, 200);
  });

  it('a refused write stores nothing', async () => {
    const response = await server.raw('POST', '/api/v1/conversations', {
      body: JSON.stringify({ label: 'sneaky', messages: [] }),
      headers: { 'content-type': 'application/json', authorization: 'Bearer nope' },
    });
    assert.equal(response.status, 401);
    assert.equal(await countConversations(server), 0);
    // Control: the same write with the key is stored, and the same probe sees it.
    assert.equal((await server.api('POST', '/api/v1/conversations', { label: 'sneaky', messages: [] })).status, 201);
    assert.equal(await countConversations(server), 1);
  });

  it('guards every business endpoint and /stats', async () => {
    for (const [method, path] of [
      ['GET', '/api/v1/conversations/count'],
      ['GET', '/api/v1/folders'],
      ['POST', '/api/v1/conversations'],
      ['GET', '/api/v1/conversations/6f1c2b8e-4d3a-4e5f-9a7b-0c1d2e3f4a5b'],
      ['DELETE', '/api/v1/conversations/6f1c2b8e-4d3a-4e5f-9a7b-0c1d2e3f4a5b'],
      ['GET', '/stats'],
    ] as const) {
      const response = await server.raw(method, path);
      assert.equal(response.status, 401, `${method} ${path}`);
    }
  });

  it('/health, /metrics, /openapi.body and /docs need no key', async () => {
    assert.equal((await server.raw('GET', '/health')).status, 200);
    assert.equal((await server.raw('GET', '/metrics')).status, 200);
    assert.equal((await server.raw('GET', '/openapi.json')).status, 200);
    assert.equal((await server.raw('GET', '/docs')).status, 200);
  });
});

describe('rate limit (2 per second, burst 3)', () => {
  let server: RunningService;
  before(async () => {
    server = await startService({ overrides: { rate_limit: { requests_per_second: 2, burst_size: 3 } } });
  });
  after(() => server.stop());

  it('allows a burst of 3, then answers 429 with Retry-After and RateLimit headers, then recovers', async () => {
    // Sent together, all four fall in the same one-second window that the first one opens.
    const responses = await Promise.all(Array.from({ length: 4 }, () => server.api('GET', '/api/v1/conversations/count')));
    const statuses = responses.map((r) => r.status).sort();
    assert.deepEqual(statuses, [200, 200, 200, 429]);
    for (const response of responses) {
      assert.equal(response.headers.get('ratelimit-limit'), '2');
      assert.match(response.headers.get('ratelimit-remaining') ?? '', /^\d+$/);
      assert.match(response.headers.get('ratelimit-reset') ?? '', /^[1-9]\d*$/);
    }
    const limited = responses.find((r) => r.status === 429)!;
    assert.deepEqual(Object.keys(limited.body).sort(), ['code', 'error']);
    assert.equal(limited.body.code, 'RATE_LIMITED');
    assert.equal(limited.headers.get('ratelimit-remaining'), '0');
    const retryAfter = Number(limited.headers.get('retry-after'));
    assert.ok(Number.isInteger(retryAfter) && retryAfter >= 1 && retryAfter <= 10, `Retry-After ${retryAfter}`);

    assert.equal((await server.api('GET', '/health')).status, 200, 'public endpoints are not limited');

    await waitFor(() => server.api('GET', '/api/v1/conversations/count'), {
      what: `a 200 once the ${retryAfter} s of Retry-After have passed`,
      until: (response) => response.status === 200,
      timeoutMs: retryAfter * 1000 + 5_000,
      intervalMs: 100,
    });
  });

  it('throttles wrong keys per address without spending the valid key', async () => {
    const wrong = [];
    for (let i = 0; i < 4; i += 1) wrong.push((await server.raw('GET', '/api/v1/folders', { headers: { 'x-api-key': `guess-${i}` } })).status);
    assert.deepEqual(wrong, [401, 401, 401, 429]);
  });
});
