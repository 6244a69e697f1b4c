import { after, before, beforeEach, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { UpstreamError } from '../../src/domain/upstream-error.js';
import { bridgeErrorOf } from '../../src/bridge/bridge.errors.js';
import { createUpstreamClient, inBatches, parseRetryAfter } from '../../src/bridge/upstream-client.js';
import { FakeUpstream, sendJson, unusedUrl } from './helpers/fake-upstreams.js';

describe('upstream client', () => {
  const server = new FakeUpstream({
    'POST /echo': (req, res) => sendJson(res, 200, { got: req.body }),
    'GET /text': (_req, res) => {
      res.writeHead(200, { 'content-type': 'text/plain' });
      res.end('not json');
    },
  });
  before(() => server.start());
  after(() => server.close());
  beforeEach(() => server.reset());

  const client = (overrides: Partial<Parameters<typeof createUpstreamClient>[0]> = {}) =>
    createUpstreamClient({ provider: 'test', baseUrl: server.url, timeoutMs: 1000, maxRetries: 3, retryBaseDelayMs: 5, maxRetryDelayMs: 2000, apiKey: 'k1', ...overrides });

  test('posts JSON with a bearer key and parses the answer', async () => {
    const result = await client().postJson('/echo', { a: 1 });
    assert.deepEqual(result, { got: { a: 1 } });
    assert.equal(server.requests[0]!.headers.authorization, 'Bearer k1');
    assert.equal(server.requests[0]!.headers['content-type'], 'application/json');
  });

  test('retries 429 and 500 then succeeds', async () => {
    server.script('POST /echo', { status: 429, body: { error: 'slow down' } }, { status: 500 }, { status: 503 });
    const result = await client().postJson('/echo', { b: 2 });
    assert.deepEqual(result, { got: { b: 2 } });
    assert.equal(server.requestsTo('POST /echo').length, 4);
  });

  test('honours Retry-After on 429: the wait before the retry is the one the server asked for', async () => {
    server.script('POST /echo', { status: 429, headers: { 'retry-after': '1' } }, { status: 503 });
    const waits: number[] = [];
    const recordWait = async (ms: number) => { waits.push(ms); };
    assert.deepEqual(await client({ sleep: recordWait, random: () => 0 }).postJson('/echo', { d: 4 }), { got: { d: 4 } });
    assert.equal(server.requestsTo('POST /echo').length, 3);
    // After the 429 the server's second wins over the 5 ms backoff; after the 503 (no Retry-After) the backoff applies.
    assert.deepEqual(waits, [1000, 5]);
  });

  test('retries a dropped connection (network error)', async () => {
    server.script('POST /echo', { dropConnection: true });
    assert.deepEqual(await client().postJson('/echo', { c: 3 }), { got: { c: 3 } });
    assert.equal(server.requestsTo('POST /echo').length, 2);
  });

  test('gives up after max_retries with the last retryable error', async () => {
    server.script('POST /echo', { status: 500 }, { status: 502 }, { status: 503 });
    await assert.rejects(client({ maxRetries: 2 }).postJson('/echo', {}), (err: unknown) => {
      assert.ok(err instanceof UpstreamError);
      assert.equal(err.status, 503);
      assert.equal(err.retryable, true);
      assert.equal(bridgeErrorOf(err).status, 502);
      return true;
    });
    assert.equal(server.requestsTo('POST /echo').length, 3);
  });

  test('does not retry a 400 and passes it on as a non-retryable error', async () => {
    server.script('POST /echo', { status: 400, body: { error: { message: 'bad input field' } } });
    await assert.rejects(client().postJson('/echo', {}), (err: unknown) => {
      assert.ok(err instanceof UpstreamError);
      assert.equal(err.kind, 'http');
      assert.equal(err.status, 400);
      assert.equal(err.retryable, false);
      assert.match(err.message, /bad input field/);
      assert.equal(bridgeErrorOf(err).code, 'UPSTREAM_REJECTED');
      return true;
    });
    assert.equal(server.requestsTo('POST /echo').length, 1);
  });

  test('times out without retrying', async () => {
    server.script('POST /echo', { hang: true });
    await assert.rejects(client({ timeoutMs: 100 }).postJson('/echo', {}), (err: unknown) => {
      assert.ok(err instanceof UpstreamError);
      assert.equal(err.kind, 'timeout');
      assert.equal(err.retryable, true, 'worth trying again later, though not repeated within the call');
      assert.match(err.message, /no response within 100 ms/);
      assert.equal(bridgeErrorOf(err).status, 504);
      return true;
    });
    assert.equal(server.requestsTo('POST /echo').length, 1);
  });

  test('an unreachable server is a network error (503 from the bridge)', async () => {
    const url = await unusedUrl();
    await assert.rejects(createUpstreamClient({ provider: 'test', baseUrl: url, timeoutMs: 1000, maxRetries: 1, retryBaseDelayMs: 1 }).getJson('/x'), (err: unknown) => {
      assert.ok(err instanceof UpstreamError);
      assert.equal(err.kind, 'network');
      assert.equal(bridgeErrorOf(err).status, 503);
      return true;
    });
  });

  test('a 2xx that is not JSON is an invalid response', async () => {
    await assert.rejects(client().getJson('/text'), (err: unknown) => err instanceof UpstreamError && err.kind === 'invalid_response' && !err.retryable);
  });

  test('a caller abort stops the call', async () => {
    server.script('POST /echo', { hang: true });
    const controller = new AbortController();
    void server.received('POST /echo').then(() => controller.abort());
    // The client's own timeout is far away: only the abort can end this call.
    await assert.rejects(client({ timeoutMs: 60_000 }).postJson('/echo', {}, { signal: controller.signal }),
      (err: unknown) => err instanceof UpstreamError && err.kind === 'aborted');
    assert.equal(server.requestsTo('POST /echo').length, 1);
  });
});

test('parseRetryAfter reads seconds and HTTP dates', () => {
  assert.equal(parseRetryAfter('2'), 2000);
  assert.equal(parseRetryAfter(null), undefined);
  assert.equal(parseRetryAfter('soon'), undefined);
  const now = Date.parse('2024-01-01T00:00:00Z');
  assert.equal(parseRetryAfter('Mon, 01 Jan 2024 00:00:03 GMT', now), 3000);
});

test('inBatches keeps order across batches', async () => {
  const calls: string[][] = [];
  const out = await inBatches(['a', 'b', 'c', 'd', 'e'], 2, async (batch) => {
    calls.push([...batch]);
    return batch.map((t) => t.toUpperCase());
  });
  assert.deepEqual(out, ['A', 'B', 'C', 'D', 'E']);
  assert.deepEqual(calls, [['a', 'b'], ['c', 'd'], ['e']]);
});
