import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { type RunningService, startService } from '../helpers/service-harness.js';
import { createConversation } from '../helpers/fixtures.js';
import { ManualClock } from '../helpers/fakes.js';
import { FakeBridge, unusedPort } from '../helpers/fake-bridge.js';

/** The value of an unlabelled Prometheus sample. */
function sample(text: string, name: string): number | undefined {
  const line = text.split('\n').find((l) => l.startsWith(`${name} `));
  return line === undefined ? undefined : Number(line.slice(name.length + 1));
}

describe('system endpoints', () => {
  let server: RunningService;
  before(async () => {
    server = await startService();
    await createConversation(server, { messages: [{ role: 'user', content: 'one' }] });
    await createConversation(server, { messages: [{ role: 'user', content: 'a' }, { role: 'assistant', content: 'b' }] });
    const doomed = await createConversation(server, { messages: [{ role: 'user', content: 'gone' }] });
    await server.api('DELETE', `/api/v1/conversations/${doomed}`);
  });
  after(() => server.stop());

  it('GET /health reports a healthy database', async () => {
    const asked = new Date();
    const response = await server.raw('GET', '/health');
    const answered = new Date();
    assert.equal(response.status, 200, response.text);
    const body = response.body;
    assert.equal(body.status, 'healthy');
    assert.match(body.timestamp, /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/);
    const stamped = Date.parse(body.timestamp);
    assert.ok(stamped >= asked.getTime() && stamped <= answered.getTime(), `${body.timestamp} is the time of the request`);
    assert.equal(body.checks.database.status, 'ok');
    assert.equal(typeof body.checks.database.latency_ms, 'number');
    assert.ok(body.checks.database.latency_ms >= 0);
    assert.ok(Number.isInteger(body.uptime_seconds) && body.uptime_seconds >= 0);
  });

  it('GET /metrics exposes the stored totals and request latency by route', async () => {
    await server.api('GET', '/api/v1/conversations/count');
    const response = await server.raw('GET', '/metrics');
    assert.equal(response.status, 200);
    assert.match(response.headers.get('content-type') ?? '', /^text\/plain/);
    const text = response.text;
    assert.match(text, /# TYPE memsvc_conversations_total gauge/);
    assert.equal(sample(text, 'memsvc_conversations_total'), 2);
    assert.equal(sample(text, 'memsvc_messages_total'), 3);
    assert.match(text, /# TYPE memsvc_http_request_duration_seconds histogram/);
    assert.match(text, /memsvc_http_request_duration_seconds_count\{[^}]*route="\/api\/v1\/conversations\/count"[^}]*\} [1-9]/);
    assert.match(text, /memsvc_http_request_duration_seconds_count\{[^}]*route="\/api\/v1\/conversations\/:id"[^}]*\} [1-9]/,
      'the route pattern, not the raw URL, is the label');
    assert.doesNotMatch(text, /route="\/api\/v1\/conversations\/[0-9a-f]{8}-/);
  });

  it('the gauges follow later changes', async () => {
    const extra = await createConversation(server);
    const text = (await server.raw('GET', '/metrics')).text;
    assert.equal(sample(text, 'memsvc_conversations_total'), 3);
    assert.equal(sample(text, 'memsvc_messages_total'), 5);
    await server.api('DELETE', `/api/v1/conversations/${extra}`);
    assert.equal(sample((await server.raw('GET', '/metrics')).text, 'memsvc_conversations_total'), 2);
  });

  it('GET /stats reports every field with correct totals', async () => {
    const response = await server.api('GET', '/stats');
    assert.equal(response.status, 200, response.text);
    const body = response.body;
    assert.equal(body.total_conversations, 2);
    assert.equal(body.total_messages, 3);
    assert.equal(typeof body.storage_size_mb, 'number');
    assert.ok(body.storage_size_mb > 0, 'the database file has a size');
    assert.equal(body.embeddings_count, 0, 'the embedding worker is off in tests');
    assert.ok(Number.isInteger(body.uptime_seconds));
    assert.ok(body.requests_total >= 10, `requests_total ${body.requests_total}`);
    assert.equal(body.errors_total, 0);
  });

  it('requests_total counts requests as they are answered', async () => {
    const first = (await server.api('GET', '/stats')).body.requests_total;
    await server.api('GET', '/api/v1/folders');
    await server.api('GET', '/api/v1/nowhere');
    const second = (await server.api('GET', '/stats')).body.requests_total;
    assert.equal(second - first, 3);
  });

  it('GET /openapi.body is an OpenAPI 3 document of the API', async () => {
    const response = await server.raw('GET', '/openapi.json');
    assert.equal(response.status, 200);
    const document = response.body;
    assert.match(document.openapi, /^3\./);
    for (const path of ['/api/v1/conversations', '/api/v1/conversations/{id}', '/api/v1/conversations/{id}/pin',
      '/api/v1/conversations/count', '/health', '/health/detailed']) {
      assert.ok(document.paths[path], `${path} is documented`);
    }
    assert.ok(document.paths['/api/v1/conversations'].post.requestBody);
  });

  it('GET /docs serves the HTML documentation', async () => {
    const response = await server.raw('GET', '/docs');
    assert.equal(response.status, 200);
    assert.match(response.headers.get('content-type') ?? '', /text\/html/);
    assert.match(response.text, /<html/i);
  });
});

describe('/health is cached, /health/detailed needs the key', () => {
  const clock = new ManualClock('2026-01-01T00:00:00.000Z');
  let server: RunningService;
  before(async () => { server = await startService({ clock }); });
  after(() => server.stop());

  it('calls within server.health_cache_ms get the same report; a later one is computed afresh', async () => {
    const first = await server.raw('GET', '/health');
    assert.equal(first.status, 200, first.text);
    assert.equal(first.body.checks.vector_store.pending, 0);
    // The worker is off: these two messages stay pending, which a fresh report shows.
    await createConversation(server);
    clock.advance(999);
    const second = await server.raw('GET', '/health');
    assert.deepEqual(second.body, first.body, 'the cached report, timestamp and all');
    clock.advance(1);
    const third = await server.raw('GET', '/health');
    assert.equal(third.body.checks.vector_store.pending, 2);
    assert.equal(third.body.timestamp, '2026-01-01T00:00:01.000Z');
  });

  it('GET /health/detailed without the key: 401 with the error envelope', async () => {
    const response = await server.raw('GET', '/health/detailed');
    assert.equal(response.status, 401);
    assert.equal(response.body.code, 'UNAUTHORIZED');
  });

  it('GET /health/detailed reports database, bridge, queue with its oldest age, index, disk and proxy, uncached', async () => {
    const before = (await server.api('GET', '/health/detailed')).body;
    await createConversation(server, { messages: [{ role: 'user', content: 'one more' }] });
    clock.advance(90_000);
    const response = await server.api('GET', '/health/detailed');
    assert.equal(response.status, 200, response.text);
    const body = response.body;
    assert.equal(body.status, 'healthy');
    assert.equal(body.checks.database.status, 'ok');
    assert.deepEqual(body.database, { status: 'ok', driver: 'sqlite' });
    assert.equal(body.bridge.reachable, true);
    assert.equal(body.bridge.status, 'ok');
    assert.equal(body.bridge.model, 'test-fake');
    assert.equal(body.queue.pending, before.queue.pending + 1, 'computed on every call');
    assert.equal(body.queue.failed, 0);
    // The first pending message was stored at 00:00:00 by the first test's clock, 91 s before now.
    assert.equal(body.queue.oldest_pending_age_seconds, 91);
    assert.equal(body.queue.worker.running, false);
    assert.equal(body.index.missing_vectors, 0);
    assert.equal(typeof body.index.partial, 'boolean');
    assert.equal(body.disk.path, server.dataDir);
    assert.ok(Number.isInteger(body.disk.free_bytes) && body.disk.free_bytes > 0);
    assert.ok(body.disk.total_bytes >= body.disk.free_bytes);
    assert.deepEqual(body.proxy, { enabled: false, spool_pending: null, spool_failed: null });
  });
});

describe('/health while the bridge starts', () => {
  it('an unhealthy report is kept a tenth of server.health_cache_ms: the bridge that comes up reads healthy then', async () => {
    const clock = new ManualClock('2026-01-01T00:00:00.000Z');
    const port = await unusedPort();
    const running = await startService({ clock, bridge: { url: `http://127.0.0.1:${port}` }, overrides: { embedding_worker: { enabled: false } } });
    const bridge = new FakeBridge();
    try {
      const away = await running.raw('GET', '/health');
      assert.equal(away.status, 503, away.text);
      await bridge.start(port);
      clock.advance(99);
      assert.equal((await running.raw('GET', '/health')).status, 503, 'the unhealthy report, kept 100 ms');
      clock.advance(1);
      const up = await running.raw('GET', '/health');
      assert.equal(up.status, 200, up.text);
      await bridge.stop();
      clock.advance(999);
      assert.equal((await running.raw('GET', '/health')).status, 200, 'a healthy report is kept the whole second');
    } finally {
      await running.stop();
      await bridge.stop();
    }
  });
});

describe('/health/detailed with the bridge away and the proxy on', () => {
  it('says the bridge is unreachable and counts the spooled exchanges', async () => {
    const running = await startService({
      bridge: { url: `http://127.0.0.1:${await unusedPort()}` },
      overrides: { proxy: { enabled: true }, embedding_worker: { enabled: false } },
    });
    try {
      mkdirSync(join(running.dataDir, 'proxy-spool', 'failed'), { recursive: true });
      writeFileSync(join(running.dataDir, 'proxy-spool', 'a.json'), '{}');
      writeFileSync(join(running.dataDir, 'proxy-spool', 'b.json'), '{}');
      writeFileSync(join(running.dataDir, 'proxy-spool', '.c.json.tmp'), '{}');
      writeFileSync(join(running.dataDir, 'proxy-spool', 'failed', 'd.json'), '{}');
      const response = await running.api('GET', '/health/detailed');
      assert.equal(response.status, 503);
      assert.equal(response.body.status, 'unhealthy');
      assert.equal(response.body.bridge.reachable, false);
      assert.equal(response.body.bridge.status, 'error');
      assert.match(response.body.bridge.error, /unreachable/);
      assert.deepEqual(response.body.proxy, { enabled: true, spool_pending: 2, spool_failed: 1 });
    } finally {
      await running.stop();
    }
  });
});

describe('metrics.require_key', () => {
  let server: RunningService;
  before(async () => { server = await startService({ overrides: { metrics: { require_key: true } } }); });
  after(() => server.stop());

  it('puts /metrics behind the API key; /health stays public', async () => {
    const anonymous = await server.raw('GET', '/metrics');
    assert.equal(anonymous.status, 401);
    assert.equal(anonymous.body.code, 'UNAUTHORIZED');
    const keyed = await server.api('GET', '/metrics');
    assert.equal(keyed.status, 200);
    assert.match(keyed.text, /memsvc_conversations_total/);
    assert.equal((await server.raw('GET', '/health')).status, 200);
  });
});
