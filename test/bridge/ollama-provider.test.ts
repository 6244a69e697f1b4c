import { after, before, beforeEach, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { UpstreamError } from '../../src/domain/upstream-error.js';
import { createOllamaChat } from '../../src/bridge/ollama/ollama-chat.js';
import { createOllamaEmbedder } from '../../src/bridge/ollama/ollama-embedder.js';
import { createUpstreamClient } from '../../src/bridge/upstream-client.js';
import { fakeOllama, fakeVector, OLLAMA_DIMENSION } from './helpers/fake-upstreams.js';

describe('ollama provider against a fake Ollama server', () => {
  const ollama = fakeOllama();
  before(() => ollama.start());
  after(() => ollama.close());
  beforeEach(() => ollama.reset());

  const client = (timeoutMs = 2000) => createUpstreamClient({ provider: 'ollama', baseUrl: ollama.url, timeoutMs, maxRetries: 3, retryBaseDelayMs: 5 });
  const embedder = (options: { model?: string; batchSize?: number; timeoutMs?: number } = {}) =>
    createOllamaEmbedder({ client: client(options.timeoutMs), model: options.model, batchSize: options.batchSize ?? 64, healthTimeoutMs: 1000 });

  test('embeds with POST /api/embed {model, input}, batched, in order, normalized', async () => {
    const e = embedder({ batchSize: 2 });
    assert.equal(e.model, 'nomic-embed-text');
    assert.equal(e.dimension, 768);
    const texts = ['one', 'two', 'three', 'four', 'five'];
    const vectors = await e.embed(texts);
    assert.equal(vectors.length, 5);
    const calls = ollama.requestsTo('POST /api/embed');
    assert.deepEqual(calls.map((c) => c.body), [
      { model: 'nomic-embed-text', input: ['one', 'two'] },
      { model: 'nomic-embed-text', input: ['three', 'four'] },
      { model: 'nomic-embed-text', input: ['five'] },
    ]);
    for (const [i, v] of vectors.entries()) {
      assert.equal(v.length, OLLAMA_DIMENSION);
      const norm = Math.hypot(...v);
      assert.ok(Math.abs(norm - 1) < 1e-5);
      const raw = fakeVector(texts[i]!, OLLAMA_DIMENSION);
      const rawNorm = Math.hypot(...raw);
      assert.ok(Math.abs(v[0]! - raw[0]! / rawNorm) < 1e-5, 'vector belongs to its text');
    }
  });

  test('retries 429 then 500 then succeeds', async () => {
    ollama.script('POST /api/embed', { status: 429, body: { error: 'busy' } }, { status: 500, body: { error: 'boom' } });
    const vectors = await embedder().embed(['a']);
    assert.equal(vectors.length, 1);
    assert.equal(ollama.requestsTo('POST /api/embed').length, 3);
  });

  test('times out', async () => {
    ollama.script('POST /api/embed', { hang: true });
    await assert.rejects(embedder({ timeoutMs: 80 }).embed(['a']), (err: unknown) => err instanceof UpstreamError && err.kind === 'timeout');
  });

  test('a missing model (404) is passed on as a non-retryable error', async () => {
    await assert.rejects(embedder({ model: 'no-such-model' }).embed(['a']), (err: unknown) => {
      assert.ok(err instanceof UpstreamError);
      assert.equal(err.status, 404);
      assert.equal(err.retryable, false);
      assert.match(err.message, /not found/);
      return true;
    });
    assert.equal(ollama.requestsTo('POST /api/embed').length, 1);
  });

  test('a 400 is passed on as a non-retryable error', async () => {
    ollama.script('POST /api/embed', { status: 400, body: { error: 'invalid input type' } });
    await assert.rejects(embedder().embed(['a']), (err: unknown) => err instanceof UpstreamError && err.status === 400 && !err.retryable && /invalid input type/.test(err.message));
    assert.equal(ollama.requestsTo('POST /api/embed').length, 1);
  });

  test('a response with the wrong number of vectors is an invalid response', async () => {
    ollama.script('POST /api/embed', { status: 200, body: { model: 'nomic-embed-text', embeddings: [[1, 2, 3]] } });
    await assert.rejects(embedder().embed(['a', 'b']), (err: unknown) => err instanceof UpstreamError && err.kind === 'invalid_response');
  });

  test('check() uses /api/tags and reports a model that is not pulled', async () => {
    await embedder().check();
    await assert.rejects(embedder({ model: 'mxbai-embed-large' }).check(), /ollama pull mxbai-embed-large/);
  });

  test('chat goes through /v1/chat/completions with the default model filled in', async () => {
    const chat = createOllamaChat({ client: client(), model: 'llama3.2', healthTimeoutMs: 1000 });
    const completion = await chat.complete({ messages: [{ role: 'user', content: 'hello' }] });
    assert.equal((completion.choices as Array<{ message: { content: string } }>)[0]!.message.content, 'echo: hello');
    const sent = ollama.requestsTo('POST /v1/chat/completions')[0]!.body;
    assert.equal(sent.model, 'llama3.2');
    assert.equal(sent.stream, false);
  });

  test('chat streaming returns the upstream SSE response', async () => {
    const chat = createOllamaChat({ client: client(), model: 'llama3.2', healthTimeoutMs: 1000 });
    const response = await chat.stream({ messages: [{ role: 'user', content: 'hi there' }] });
    assert.match(response.headers.get('content-type') ?? '', /text\/event-stream/);
    const text = await response.text();
    assert.match(text, /data: \[DONE\]/);
    assert.match(text, /"content":"echo:"/);
  });
});
