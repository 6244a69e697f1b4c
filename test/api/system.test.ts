import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { type RunningService, startService } from '../helpers/service-harness.js';
import { createConversation } from '../helpers/fixtures.js';

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
      '/api/v1/conversations/count', '/health']) {
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
