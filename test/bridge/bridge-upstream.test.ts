import { after, before, beforeEach, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { FastifyInstance } from 'fastify';
import { buildBridgeApp } from '../../src/bridge/bridge.app.js';
import { bridgeConfig } from './helpers/bridge-test-config.js';
import { fakeOllama, fakeOpenAi, OPENAI_TEST_KEY, unusedUrl } from './helpers/fake-upstreams.js';

describe('bridge app with every capability on Ollama (fake server)', () => {
  const ollama = fakeOllama();
  let app: FastifyInstance;
  let base: string;

  before(async () => {
    await ollama.start();
    app = await buildBridgeApp(
      bridgeConfig({
        timeout_ms: 500,
        max_retries: 2,
        ollama: { url: ollama.url },
        embeddings: { provider: 'ollama', batch_size: 2 },
        summaries: { provider: 'ollama' },
        chat: { provider: 'ollama', model: 'llama3.2' },
      }),
      { logLevel: 'silent', retryBaseDelayMs: 5 },
    );
    base = await app.listen({ host: '127.0.0.1', port: 0 });
  });
  after(async () => {
    await app.close();
    await ollama.close();
  });
  beforeEach(() => ollama.reset());

  const post = async (path: string, body: unknown) => {
    const response = await fetch(`${base}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
    const text = await response.text();
    return { status: response.status, body: JSON.parse(text) as any, headers: response.headers };
  };

  test('/embed goes to /api/embed in batches', async () => {
    const res = await post('/embed', { texts: ['a', 'b', 'c'] });
    assert.equal(res.status, 200);
    assert.equal(res.body.model, 'nomic-embed-text');
    assert.equal(res.body.dimension, 768);
    assert.equal(res.body.embeddings.length, 3);
    assert.equal(ollama.requestsTo('POST /api/embed').length, 2);
  });

  test('/embed retries 429 and 500 from upstream, then succeeds', async () => {
    ollama.script('POST /api/embed', { status: 429 }, { status: 500 });
    const res = await post('/embed', { texts: ['a'] });
    assert.equal(res.status, 200);
    assert.equal(ollama.requestsTo('POST /api/embed').length, 3);
  });

  test('/embed: persistent 5xx -> 502 UPSTREAM_ERROR', async () => {
    ollama.script('POST /api/embed', { status: 500 }, { status: 500 }, { status: 500 });
    const res = await post('/embed', { texts: ['a'] });
    assert.equal(res.status, 502);
    assert.equal(res.body.code, 'UPSTREAM_ERROR');
  });

  test('/embed: upstream 400 -> 502 UPSTREAM_REJECTED, not retried', async () => {
    ollama.script('POST /api/embed', { status: 400, body: { error: 'invalid input type' } });
    const res = await post('/embed', { texts: ['a'] });
    assert.equal(res.status, 502);
    assert.equal(res.body.code, 'UPSTREAM_REJECTED');
    assert.match(res.body.error, /invalid input type/);
    assert.equal(ollama.requestsTo('POST /api/embed').length, 1);
  });

  test('/embed: upstream too slow -> 504 UPSTREAM_TIMEOUT', async () => {
    ollama.script('POST /api/embed', { hang: true });
    const res = await post('/embed', { texts: ['a'] });
    assert.equal(res.status, 504);
    assert.equal(res.body.code, 'UPSTREAM_TIMEOUT');
  });

  test('/embed: persistent 429 -> 503 UPSTREAM_RATE_LIMITED with Retry-After', async () => {
    const limited = { status: 429, headers: { 'retry-after': '0' } };
    ollama.script('POST /api/embed', limited, limited, limited);
    const res = await post('/embed', { texts: ['a'] });
    assert.equal(res.status, 503);
    assert.equal(res.body.code, 'UPSTREAM_RATE_LIMITED');
    assert.equal(res.headers.get('retry-after'), '0');
  });

  test('/summarize prompts the chat model and trims to about target_words', async () => {
    const res = await post('/summarize', { texts: ['We agreed on the plan.', 'Bob will migrate the database.'], target_words: 8 });
    assert.equal(res.status, 200);
    assert.equal(res.body.model, 'llama3.2');
    assert.equal(res.body.summary, 'The team agreed on the plan. Bob owns the migration.');
    assert.equal(res.body.word_count, 10);
    const sent = ollama.requestsTo('POST /v1/chat/completions')[0]!.body;
    assert.equal(sent.model, 'llama3.2');
    assert.match(sent.messages[1].content, /about 8 words/);
    assert.match(sent.messages[1].content, /\[2\] Bob will migrate the database\./);
  });

  test('/v1/chat/completions forwards and returns the upstream completion', async () => {
    const res = await post('/v1/chat/completions', { messages: [{ role: 'user', content: 'hello' }], temperature: 0.1 });
    assert.equal(res.status, 200);
    assert.equal(res.body.object, 'chat.completion');
    assert.equal(res.body.choices[0].message.content, 'echo: hello');
    const sent = ollama.requestsTo('POST /v1/chat/completions')[0]!.body;
    assert.equal(sent.model, 'llama3.2');
    assert.equal(sent.temperature, 0.1);
  });

  test('/v1/chat/completions with stream: true passes the SSE stream through', async () => {
    const response = await fetch(`${base}/v1/chat/completions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ stream: true, messages: [{ role: 'user', content: 'stream me' }] }),
    });
    assert.equal(response.status, 200);
    assert.match(response.headers.get('content-type') ?? '', /text\/event-stream/);
    const text = await response.text();
    const events = text.split('\n\n').filter(Boolean);
    assert.equal(events.at(-1), 'data: [DONE]');
    const content = events
      .slice(0, -1)
      .map((e) => JSON.parse(e.slice('data: '.length)).choices[0].delta.content ?? '')
      .join('');
    assert.equal(content, 'echo: stream me');
  });

  test('/v1/chat/completions: an upstream 404 (unknown model) is passed through as 404', async () => {
    const res = await post('/v1/chat/completions', { model: 'missing-model', messages: [{ role: 'user', content: 'x' }] });
    assert.equal(res.status, 404);
    assert.equal(res.body.error.type, 'invalid_request_error');
    assert.match(res.body.error.message, /not found/);
  });

  test('/v1/chat/completions: upstream 5xx -> 502 in OpenAI error shape', async () => {
    ollama.script('POST /v1/chat/completions', { status: 500 }, { status: 500 }, { status: 500 });
    const res = await post('/v1/chat/completions', { messages: [{ role: 'user', content: 'x' }] });
    assert.equal(res.status, 502);
    assert.equal(res.body.error.type, 'upstream_error');
  });

  test('/health reports the Ollama providers', async () => {
    const response = await fetch(`${base}/health`);
    const body = (await response.json()) as any;
    assert.equal(response.status, 200);
    assert.equal(body.status, 'healthy');
    assert.deepEqual(body.providers.embeddings, { provider: 'ollama', model: 'nomic-embed-text', dimension: 768, status: 'ok' });
    assert.deepEqual(body.providers.summaries, { provider: 'ollama', model: 'llama3.2', status: 'ok' });
    assert.deepEqual(body.providers.chat, { provider: 'ollama', model: 'llama3.2', status: 'ok' });
  });
});

describe('bridge app with an unreachable Ollama', () => {
  test('/embed -> 503 UPSTREAM_UNAVAILABLE; /health -> 503 unhealthy', async () => {
    const url = await unusedUrl();
    const app = await buildBridgeApp(bridgeConfig({ max_retries: 1, ollama: { url }, embeddings: { provider: 'ollama' } }), { logLevel: 'silent', retryBaseDelayMs: 5 });
    try {
      const res = await app.inject({ method: 'POST', url: '/embed', payload: { texts: ['a'] } });
      assert.equal(res.statusCode, 503);
      assert.equal(res.json().code, 'UPSTREAM_UNAVAILABLE');
      const health = await app.inject({ method: 'GET', url: '/health' });
      assert.equal(health.statusCode, 503);
      assert.equal(health.json().status, 'unhealthy');
      assert.equal(health.json().providers.embeddings.status, 'error');
      assert.ok(health.json().providers.embeddings.error);
      assert.equal(health.json().providers.summaries.status, 'ok');
    } finally {
      await app.close();
    }
  });
});

describe('bridge app on an OpenAI-compatible server (fake)', () => {
  const server = fakeOpenAi();
  let app: FastifyInstance;
  before(async () => {
    await server.start();
    app = await buildBridgeApp(
      bridgeConfig({
        openai: { url: `${server.url}/v1`, api_key: OPENAI_TEST_KEY },
        embeddings: { provider: 'openai' },
        summaries: { provider: 'openai', model: 'gpt-4o-mini' },
        chat: { provider: 'openai' },
      }),
      { logLevel: 'silent', retryBaseDelayMs: 5 },
    );
  });
  after(async () => {
    await app.close();
    await server.close();
  });

  test('/embed and /v1/embeddings use POST {url}/embeddings with the key', async () => {
    const res = await app.inject({ method: 'POST', url: '/embed', payload: { texts: ['a', 'b'] } });
    assert.equal(res.statusCode, 200);
    assert.equal(res.json().model, 'text-embedding-3-small');
    assert.equal(res.json().dimension, 768);
    const openAi = await app.inject({ method: 'POST', url: '/v1/embeddings', payload: { input: ['a', 'b'] } });
    assert.equal(openAi.statusCode, 200);
    assert.deepEqual(openAi.json().data[1].embedding, res.json().embeddings[1]);
    assert.equal(server.requestsTo('POST /v1/embeddings')[0]!.headers.authorization, `Bearer ${OPENAI_TEST_KEY}`);
  });

  test('/v1/chat/completions and /summarize use POST {url}/chat/completions', async () => {
    const chat = await app.inject({ method: 'POST', url: '/v1/chat/completions', payload: { messages: [{ role: 'user', content: 'yo' }] } });
    assert.equal(chat.statusCode, 200);
    assert.equal(chat.json().model, 'gpt-4o-mini');
    const summary = await app.inject({ method: 'POST', url: '/summarize', payload: { texts: ['Some text to summarize.'], target_words: 50 } });
    assert.equal(summary.statusCode, 200);
    assert.equal(summary.json().model, 'gpt-4o-mini');
    assert.match(summary.json().summary, /agreed on the plan/);
  });

  test('/health probes GET {url}/models', async () => {
    const health = await app.inject({ method: 'GET', url: '/health' });
    assert.equal(health.statusCode, 200);
    assert.equal(health.json().providers.chat.status, 'ok');
    assert.ok(server.requestsTo('GET /v1/models').length >= 1);
  });
});
