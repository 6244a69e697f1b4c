import { after, before, beforeEach, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { UpstreamError } from '../../src/domain/upstream-error.js';
import { checkOpenAiServer, createOpenAiCompatibleChat } from '../../src/bridge/openai/openai-chat.js';
import { createOpenAiEmbedder } from '../../src/bridge/openai/openai-embedder.js';
import { createUpstreamClient } from '../../src/bridge/upstream-client.js';
import { fakeOpenAi, OPENAI_TEST_KEY } from './helpers/fake-upstreams.js';

describe('openai provider against a fake OpenAI-compatible server', () => {
  const server = fakeOpenAi();
  before(() => server.start());
  after(() => server.close());
  beforeEach(() => server.reset());

  const client = (options: { key?: string; timeoutMs?: number } = {}) =>
    createUpstreamClient({ provider: 'openai', baseUrl: `${server.url}/v1`, apiKey: options.key ?? OPENAI_TEST_KEY, timeoutMs: options.timeoutMs ?? 2000, maxRetries: 3, retryBaseDelayMs: 5 });
  const embedder = (options: { model?: string; key?: string; timeoutMs?: number; batchSize?: number } = {}) =>
    createOpenAiEmbedder({ client: client(options), model: options.model, batchSize: options.batchSize ?? 64, healthTimeoutMs: 1000 });

  test('embeds via POST /embeddings with a Bearer key, asks text-embedding-3 for 768 dims, orders by index', async () => {
    const e = embedder({ batchSize: 3 });
    assert.equal(e.model, 'text-embedding-3-small');
    assert.equal(e.dimension, 768);
    const vectors = await e.embed(['a', 'b', 'c', 'd']);
    assert.equal(vectors.length, 4);
    assert.ok(vectors.every((v) => v.length === 768));
    const calls = server.requestsTo('POST /v1/embeddings');
    assert.equal(calls.length, 2);
    assert.equal(calls[0]!.headers.authorization, `Bearer ${OPENAI_TEST_KEY}`);
    assert.deepEqual(calls[0]!.body, { model: 'text-embedding-3-small', input: ['a', 'b', 'c'], encoding_format: 'float', dimensions: 768 });
    // The fake answers in reverse order; the vectors must still follow the input order.
    const again = await e.embed(['c']);
    assert.deepEqual(Array.from(again[0]!), Array.from(vectors[2]!));
  });

  test('other models are not asked to shorten their vectors', async () => {
    const e = embedder({ model: 'my-local-model' });
    assert.equal(e.dimension, 0);
    const vectors = await e.embed(['x']);
    assert.equal(vectors[0]!.length, 1536);
    assert.equal(e.dimension, 1536);
    assert.equal(server.requestsTo('POST /v1/embeddings')[0]!.body.dimensions, undefined);
  });

  test('retries 429 and 500 then succeeds', async () => {
    server.script('POST /v1/embeddings', { status: 429, body: { error: { message: 'Rate limit reached' } }, headers: { 'retry-after': '0' } }, { status: 500 });
    assert.equal((await embedder().embed(['a'])).length, 1);
    assert.equal(server.requestsTo('POST /v1/embeddings').length, 3);
  });

  test('a wrong key (401) is not retried', async () => {
    await assert.rejects(embedder({ key: 'wrong' }).embed(['a']), (err: unknown) => {
      assert.ok(err instanceof UpstreamError);
      assert.equal(err.status, 401);
      assert.equal(err.retryable, false);
      assert.match(err.message, /Incorrect API key/);
      return true;
    });
    assert.equal(server.requestsTo('POST /v1/embeddings').length, 1);
  });

  test('a 400 is passed on as a non-retryable error', async () => {
    server.script('POST /v1/embeddings', { status: 400, body: { error: { message: "'input' is invalid", type: 'invalid_request_error' } } });
    await assert.rejects(embedder().embed(['a']), (err: unknown) => err instanceof UpstreamError && err.status === 400 && !err.retryable);
    assert.equal(server.requestsTo('POST /v1/embeddings').length, 1);
  });

  test('times out', async () => {
    server.script('POST /v1/embeddings', { hang: true });
    await assert.rejects(embedder({ timeoutMs: 80 }).embed(['a']), (err: unknown) => err instanceof UpstreamError && err.kind === 'timeout');
  });

  test('a 200 without data is an invalid response', async () => {
    server.script('POST /v1/embeddings', { status: 200, body: { object: 'list' } });
    await assert.rejects(embedder().embed(['a']), (err: unknown) => err instanceof UpstreamError && err.kind === 'invalid_response');
  });

  test('chat completions and health probe', async () => {
    const c = client();
    const chat = createOpenAiCompatibleChat({ provider: 'openai', client: c, model: 'gpt-4o-mini', chatPath: '/chat/completions', check: () => checkOpenAiServer(c, 1000) });
    const completion = await chat.complete({ messages: [{ role: 'user', content: 'ping' }], temperature: 0 });
    assert.equal(completion.object, 'chat.completion');
    const sent = server.requestsTo('POST /v1/chat/completions')[0]!.body;
    assert.equal(sent.model, 'gpt-4o-mini');
    assert.equal(sent.temperature, 0);
    await chat.check();
    await assert.rejects(checkOpenAiServer(client({ key: 'bad' }), 1000), /401/);
  });
});
