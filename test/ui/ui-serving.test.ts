import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { request as httpRequest } from 'node:http';
import { FakeBridge } from '../helpers/fake-bridge.js';
import { ensureWebBuilt } from './web-build.js';
import { removeDir, type RunningService, startService, TEST_API_KEY } from '../helpers/service-harness.js';

/** The controller serves the built UI at "/" without a key, and keeps every API answer as it was. */
describe('web UI serving', () => {
  let bridge: FakeBridge;
  let server: RunningService;
  before(async () => {
    ensureWebBuilt();
    bridge = await new FakeBridge().start();
    server = await startService({ bridge: { url: bridge.url } });
  });
  after(async () => {
    await server.stop();
    await bridge.stop();
    removeDir(server.dataDir);
  });

  const get = (path: string, headers: Record<string, string> = {}) => fetch(`${server.baseUrl}${path}`, { headers });
  const rawGet = (path: string) => new Promise<{ status: number; body: string }>((resolve, reject) => {
    const request = httpRequest(`${server.baseUrl}/`, { path }, (response) => {
      let body = '';
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => { body += chunk; });
      response.on('end', () => resolve({ status: response.statusCode ?? 0, body }));
    });
    request.on('error', reject);
    request.end();
  });

  it('serves index.html at / without a key, with a strict CSP and no caching', async () => {
    const response = await get('/');
    assert.equal(response.status, 200);
    assert.equal(response.headers.get('content-type'), 'text/html; charset=utf-8');
    assert.equal(response.headers.get('cache-control'), 'no-cache');
    assert.match(response.headers.get('content-security-policy') ?? '', /default-src 'self'/);
    assert.match(await response.text(), /<div id="app">/);
  });

  it('serves hashed assets with long-lived caching, their content type and ETag revalidation', async () => {
    const html = await (await get('/')).text();
    const script = /src="(\/assets\/[^"]+\.js)"/.exec(html)?.[1];
    const style = /href="(\/assets\/[^"]+\.css)"/.exec(html)?.[1];
    assert.ok(script && style, html);
    const js = await get(script);
    assert.equal(js.status, 200);
    assert.equal(js.headers.get('content-type'), 'text/javascript; charset=utf-8');
    assert.equal(js.headers.get('cache-control'), 'public, max-age=31536000, immutable');
    assert.equal(js.headers.get('x-content-type-options'), 'nosniff');
    const etag = js.headers.get('etag')!;
    assert.equal((await get(script, { 'if-none-match': etag })).status, 304);
    assert.equal((await get(style)).headers.get('content-type'), 'text/css; charset=utf-8');
  });

  it('falls back to the app for client routes, but not for missing files or traversal', async () => {
    for (const path of ['/conversations/123', '/search?q=x', '/dashboard']) {
      const response = await get(path);
      assert.equal(response.status, 200, path);
      assert.match(await response.text(), /<div id="app">/, path);
    }
    for (const path of ['/assets/missing.js', '/favicon.ico']) assert.equal((await get(path)).status, 404, path);
    // Sent byte for byte (fetch would normalize the dot segments away).
    for (const path of ['/../package.json', '/assets/../../package.json', '/%2e%2e/%2e%2e/etc/passwd',
      '/assets/..%2f..%2fpackage.json', '/assets/%2e%2e%5c%2e%2e%5cpackage.json', '/%00']) {
      const response = await rawGet(path);
      assert.equal(response.status, 404, path);
      assert.doesNotMatch(response.body, /"name": "memsvc"|root:/, path);
    }
  });

  it('leaves API answers alone: unknown API paths stay JSON 404 behind auth, known ones need the key', async () => {
    assert.equal((await get('/api/v1/nothing-here')).status, 401);
    const missing = await get('/api/v1/nothing-here', { authorization: `Bearer ${TEST_API_KEY}` });
    assert.equal(missing.status, 404);
    assert.equal((await missing.json() as { code: string }).code, 'NOT_FOUND');
    assert.equal((await get('/api/v1/conversations')).status, 401);
    assert.equal((await get('/stats')).status, 401);
    assert.equal((await get('/health')).headers.get('content-type')?.startsWith('application/json'), true);
    const docs = await get('/docs');
    assert.equal(docs.status, 200);
    assert.match(await docs.text(), /swagger/i);
    const openapi = await (await get('/openapi.json')).json() as { paths: Record<string, unknown> };
    assert.ok(openapi.paths['/api/v1/activity/messages-per-day']);
    assert.deepEqual(Object.keys(openapi.paths).filter((path) => path === '/' || path.endsWith('*')), []);
  });

  it('GET /api/v1/activity/messages-per-day counts messages per UTC day, with the key only', async () => {
    assert.equal((await get('/api/v1/activity/messages-per-day')).status, 401);
    const today = new Date().toISOString().slice(0, 10);
    const yesterday = new Date(Date.now() - 86_400_000).toISOString().slice(0, 10);
    await server.api('POST', '/api/v1/conversations', { label: 'a', messages: [
      { role: 'user', content: 'one', timestamp: `${yesterday}T10:00:00Z` },
      { role: 'user', content: 'two' }, { role: 'assistant', content: 'three' },
    ] });
    const { status, body } = await server.api('GET', '/api/v1/activity/messages-per-day?days=7');
    assert.equal(status, 200);
    assert.equal(body.days.length, 7);
    assert.equal(body.to, today);
    assert.deepEqual(body.days.slice(-2), [{ date: yesterday, messages: 1 }, { date: today, messages: 2 }]);
    assert.equal((await server.api('GET', '/api/v1/activity/messages-per-day?days=0')).status, 400);
  });
});
