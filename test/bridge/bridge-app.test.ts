import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { FastifyInstance } from 'fastify';
import { buildBridgeApp } from '../../src/bridge/bridge.app.js';
import { bridgeConfig, testEmbedder } from './helpers/bridge-test-config.js';

/** The bridge with builtin providers (a tiny test embedder stands in for the builtin one), over a real listener. */
describe('bridge app, builtin providers', () => {
  let app: FastifyInstance;
  let base: string;
  const embedder = testEmbedder();
  let loads = 0;

  before(async () => {
    app = await buildBridgeApp(bridgeConfig(), {
      logLevel: 'silent',
      loadBuiltinEmbedder: async () => {
        loads++;
        return embedder;
      },
    });
    base = await app.listen({ host: '127.0.0.1', port: 0 });
  });
  after(() => app.close());

  const post = async (path: string, body: unknown, headers: Record<string, string> = { 'content-type': 'application/json' }) => {
    const response = await fetch(`${base}${path}`, { method: 'POST', headers, body: typeof body === 'string' ? body : JSON.stringify(body) });
    return { status: response.status, body: (await response.json()) as any, headers: response.headers };
  };

  test('GET /health before any /embed: healthy, embedder not loaded yet', async () => {
    const response = await fetch(`${base}/health`);
    assert.equal(response.status, 200);
    const body = (await response.json()) as any;
    assert.equal(body.status, 'healthy');
    assert.match(body.timestamp, /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
    assert.equal(body.providers.embeddings.provider, 'builtin');
    assert.equal(body.providers.embeddings.loaded, false);
    assert.equal(body.providers.embeddings.dimension, 768);
    assert.equal(body.providers.summaries.provider, 'builtin');
    assert.deepEqual(body.providers.chat, { provider: 'none', status: 'disabled' });
    assert.equal(loads, 0);
  });

  test('POST /embed returns {model, dimension, embeddings}, loading the embedder once', async () => {
    const [a, b] = await Promise.all([post('/embed', { texts: ['hello', 'world'] }), post('/embed', { texts: ['again'] })]);
    assert.equal(a.status, 200);
    assert.deepEqual(Object.keys(a.body).sort(), ['dimension', 'embeddings', 'model']);
    assert.equal(a.body.model, 'test-embedder-v1');
    assert.equal(a.body.dimension, 8);
    assert.equal(a.body.embeddings.length, 2);
    assert.ok(a.body.embeddings.every((v: number[]) => v.length === 8 && v.every((x) => typeof x === 'number')));
    assert.equal(b.body.embeddings.length, 1);
    assert.equal(loads, 1);
    const health = (await (await fetch(`${base}/health`)).json()) as any;
    assert.equal(health.providers.embeddings.loaded, true);
    assert.equal(health.providers.embeddings.model, 'test-embedder-v1');
  });

  test('POST /embed with encoding_format base64 answers the same vectors as little-endian float32', async () => {
    const texts = ['hello world', 'another text'];
    const [floats, packed] = await Promise.all([
      post('/embed', { texts }), post('/embed', { texts, encoding_format: 'base64' })]);
    assert.equal(packed.status, 200);
    assert.deepEqual(Object.keys(packed.body).sort(), ['dimension', 'embeddings_base64', 'model']);
    const decoded = packed.body.embeddings_base64.map((encoded: string) => {
      const bytes = Buffer.from(encoded, 'base64');
      return Array.from({ length: bytes.byteLength / 4 }, (_, i) => bytes.readFloatLE(i * 4));
    });
    assert.deepEqual(decoded, floats.body.embeddings.map((v: number[]) => v.map((x) => Math.fround(x))));
  });

  test('POST /embed rejects bad input with 400 naming the field', async () => {
    const cases: Array<[unknown, RegExp]> = [
      [{ texts: [] }, /texts/],
      [{}, /texts/],
      [{ texts: 'hello' }, /texts/],
      [{ texts: [1, 2] }, /texts\/0/],
      [{ texts: Array.from({ length: 257 }, () => 'x') }, /texts/],
      [{ texts: ['x'.repeat(100_001)] }, /texts\/0/],
    ];
    for (const [body, field] of cases) {
      const res = await post('/embed', body);
      assert.equal(res.status, 400, JSON.stringify(body).slice(0, 50));
      assert.equal(res.body.code, 'VALIDATION_FAILED');
      assert.match(res.body.error, field);
    }
  });

  test('malformed JSON is a 400 INVALID_JSON', async () => {
    const res = await post('/embed', '{"texts": [');
    assert.equal(res.status, 400);
    assert.equal(res.body.code, 'INVALID_JSON');
  });

  test('POST /v1/embeddings answers in OpenAI shape, float and base64', async () => {
    const single = await post('/v1/embeddings', { input: 'hello', model: 'whatever' });
    assert.equal(single.status, 200);
    assert.equal(single.body.object, 'list');
    assert.equal(single.body.model, 'test-embedder-v1');
    assert.deepEqual(single.body.data[0].object, 'embedding');
    assert.equal(single.body.data[0].index, 0);
    assert.equal(single.body.data[0].embedding.length, 8);
    assert.ok(single.body.usage.prompt_tokens > 0);
    assert.equal(single.body.usage.total_tokens, single.body.usage.prompt_tokens);

    const many = await post('/v1/embeddings', { input: ['a', 'b', 'c'], encoding_format: 'base64' });
    assert.equal(many.body.data.length, 3);
    const decoded = new Float32Array(new Uint8Array(Buffer.from(many.body.data[1].embedding, 'base64')).buffer);
    assert.equal(decoded.length, 8);
    const plain = await post('/embed', { texts: ['b'] });
    assert.ok(decoded.every((x, i) => Math.abs(x - plain.body.embeddings[0][i]) < 1e-6));
  });

  test('POST /v1/embeddings errors use OpenAI error shape', async () => {
    const missing = await post('/v1/embeddings', { model: 'x' });
    assert.equal(missing.status, 400);
    assert.equal(missing.body.error.type, 'invalid_request_error');
    assert.match(missing.body.error.message, /input/);
    const dims = await post('/v1/embeddings', { input: 'x', dimensions: 3 });
    assert.equal(dims.status, 400);
    assert.match(dims.body.error.message, /dimensions/);
  });

  test('POST /summarize: extractive summary near target_words', async () => {
    const texts = [
      'We met to plan the Q3 launch of the mobile app. The team discussed the release timeline in detail.',
      'Alice said the backend migration to PostgreSQL must finish before the launch. Bob agreed to own the migration and finish it by August 15.',
      'The weather was nice today. Someone brought donuts to the office.',
      'We decided to delay the Android release by two weeks because of crash reports on older devices.',
    ];
    const res = await post('/summarize', { texts, target_words: 30 });
    assert.equal(res.status, 200);
    assert.equal(res.body.model, 'builtin-textrank-v1');
    assert.ok(res.body.summary.length > 0);
    assert.ok(res.body.word_count > 0 && res.body.word_count <= 30 + 25);
    assert.equal(res.body.word_count, res.body.summary.split(/\s+/).filter(Boolean).length);

    const whole = await post('/summarize', { texts: ['Short note.'] });
    assert.deepEqual(whole.body, { summary: 'Short note.', word_count: 2, model: 'builtin-textrank-v1' });
  });

  test('POST /summarize: empty input gives an empty summary', async () => {
    for (const texts of [[], [''], ['  ', '\n']]) {
      const res = await post('/summarize', { texts });
      assert.equal(res.status, 200);
      assert.deepEqual(res.body, { summary: '', word_count: 0, model: 'builtin-textrank-v1' });
    }
  });

  test('POST /summarize: bad input is 400', async () => {
    assert.equal((await post('/summarize', {})).status, 400);
    assert.equal((await post('/summarize', { texts: ['a'], target_words: 0 })).status, 400);
    assert.equal((await post('/summarize', { texts: ['a'], target_words: 'ten' })).status, 400);
  });

  test('POST /extract returns every entity list', async () => {
    const res = await post('/extract', { text: 'Alice Johnson from Google met Bob in Paris on March 3rd, 2024. Mail bob@example.com, see https://example.com.' });
    assert.equal(res.status, 200);
    assert.equal(res.body.model, 'builtin-entities-v1');
    const e = res.body.entities;
    assert.deepEqual(Object.keys(e).sort(), ['dates', 'emails', 'organizations', 'people', 'places', 'urls']);
    assert.ok(e.people.includes('Alice Johnson'));
    assert.ok(e.organizations.includes('Google'));
    assert.ok(e.places.includes('Paris'));
    assert.deepEqual(e.emails, ['bob@example.com']);
    assert.deepEqual(e.urls, ['https://example.com']);
    assert.ok(e.dates.includes('March 3rd, 2024'));
    assert.equal((await post('/extract', { text: 5 })).status, 400);
    assert.equal((await post('/extract', {})).status, 400);
  });

  test('POST /score returns integers 1..10 in order', async () => {
    const res = await post('/score', { texts: ['ok', 'We decided to ship on Friday; I will send the release notes by Thursday.', ''] });
    assert.equal(res.status, 200);
    assert.equal(res.body.model, 'builtin-importance-v1');
    assert.equal(res.body.scores.length, 3);
    assert.equal(res.body.scores[0], 1);
    assert.ok(res.body.scores[1] >= 7);
    assert.ok(res.body.scores.every((s: number) => Number.isInteger(s) && s >= 1 && s <= 10));
    assert.equal((await post('/score', { texts: [] })).status, 400);
  });

  test('POST /v1/chat/completions without a chat provider: 503 in OpenAI error shape', async () => {
    const res = await post('/v1/chat/completions', { model: 'x', messages: [{ role: 'user', content: 'hi' }] });
    assert.equal(res.status, 503);
    assert.equal(res.body.error.message, 'No chat model is configured: set bridge.chat.provider to ollama or openai');
    assert.equal(res.body.error.type, 'service_unavailable');
    const bad = await post('/v1/chat/completions', { messages: [] });
    assert.equal(bad.status, 400);
    assert.equal(bad.body.error.type, 'invalid_request_error');
  });

  test('unknown routes are 404 JSON', async () => {
    const res = await fetch(`${base}/nope`);
    assert.equal(res.status, 404);
    assert.deepEqual(await res.json(), { error: 'Route GET /nope not found', code: 'ROUTE_NOT_FOUND' });
  });

  test('GET /openapi.json documents every endpoint', async () => {
    const res = await fetch(`${base}/openapi.json`);
    assert.equal(res.status, 200);
    const doc = (await res.json()) as any;
    assert.match(doc.openapi, /^3\./);
    for (const path of ['/embed', '/v1/embeddings', '/summarize', '/extract', '/score', '/v1/chat/completions']) {
      assert.ok(doc.paths[path]?.post, `missing ${path}`);
    }
    assert.ok(doc.paths['/health'].get);
    assert.ok(doc.paths['/embed'].post.requestBody.content['application/json'].schema.properties.texts);
    assert.ok(doc.paths['/embed'].post.responses['200']);
    assert.equal(doc.paths['/openapi.json'], undefined);
  });
});

test('a body over the limit is 413 PAYLOAD_TOO_LARGE', async () => {
  const app = await buildBridgeApp(bridgeConfig(), { logLevel: 'silent', bodyLimit: 2048, loadBuiltinEmbedder: async () => testEmbedder() });
  try {
    const res = await app.inject({ method: 'POST', url: '/embed', payload: { texts: ['x'.repeat(5000)] } });
    assert.equal(res.statusCode, 413);
    assert.equal(res.json().code, 'PAYLOAD_TOO_LARGE');
  } finally {
    await app.close();
  }
});

describe('bridge app, builtin embedder that fails to load', () => {
  test('/embed answers 503 EMBEDDER_UNAVAILABLE and /health turns unhealthy; the next call retries the load', async () => {
    let attempts = 0;
    const app = await buildBridgeApp(bridgeConfig(), {
      logLevel: 'silent',
      loadBuiltinEmbedder: async () => {
        attempts++;
        if (attempts === 1) throw new Error('model file missing');
        return testEmbedder();
      },
    });
    try {
      const first = await app.inject({ method: 'POST', url: '/embed', payload: { texts: ['a'] } });
      assert.equal(first.statusCode, 503);
      assert.equal(first.json().code, 'EMBEDDER_UNAVAILABLE');
      assert.match(first.json().error, /model file missing/);
      const health = await app.inject({ method: 'GET', url: '/health' });
      assert.equal(health.statusCode, 503);
      assert.equal(health.json().status, 'unhealthy');
      assert.equal(health.json().providers.embeddings.status, 'error');
      const second = await app.inject({ method: 'POST', url: '/embed', payload: { texts: ['a'] } });
      assert.equal(second.statusCode, 200);
      assert.equal((await app.inject({ method: 'GET', url: '/health' })).statusCode, 200);
    } finally {
      await app.close();
    }
  });
});
