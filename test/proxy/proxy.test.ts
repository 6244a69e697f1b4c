import { after, before, beforeEach, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AddressInfo } from 'node:net';
import OpenAI from 'openai';
import { loadConfig, type DeepPartial } from '../../src/config/config.loader.js';
import type { Config } from '../../src/config/config.schema.js';
import { buildProxyApp, type ProxyApp } from '../../src/proxy/proxy.app.js';
import type { ProxyConversations } from '../../src/proxy/conversation-target.js';
import { FakeBridge, unusedPort } from '../helpers/fake-bridge.js';
import { FakeOpenAiUpstream } from './fake-openai-upstream.js';
import { removeDir, type RunningService, startService, TEST_API_KEY } from '../helpers/service-harness.js';
import { waitFor } from '../helpers/wait-for.js';

const UPSTREAM_KEY = 'upstream-secret-key';
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const ZEPHYR_FACT = 'The Zephyr cluster passwords rotate every Tuesday at 09:00.';

/**
 * The chat proxy end to end: the official openai client -> the proxy (own app,
 * real port) -> a fake OpenAI upstream, with a real controller (SQLite, the
 * fake bridge) providing context assembly and storage in-process.
 */
describe('chat proxy', () => {
  let bridge: FakeBridge;
  let memsvc: RunningService;
  let upstream: FakeOpenAiUpstream;
  let proxy: RunningProxy;
  let opsId: string;

  before(async () => {
    bridge = await new FakeBridge().start();
    memsvc = await startService({ bridge: { url: bridge.url } });
    upstream = await new FakeOpenAiUpstream().start();
    proxy = await startProxy(memsvc, { upstream_url: upstream.baseUrl, upstream_api_key: UPSTREAM_KEY, timeout_ms: 2000 });
    const ops = await memsvc.api('POST', '/api/v1/conversations', {
      label: 'ops', folder: '/work/ops', messages: [
        { role: 'user', content: 'When do the Zephyr cluster passwords rotate?' },
        { role: 'assistant', content: ZEPHYR_FACT },
      ],
    });
    assert.equal(ops.status, 201);
    opsId = ops.body.id;
    const personal = await memsvc.api('POST', '/api/v1/conversations', {
      label: 'pets', folder: '/personal', messages: [{ role: 'user', content: 'My cat is called Zephyr and loves sardines.' }],
    });
    assert.equal(personal.status, 201);
  });

  after(async () => {
    await proxy?.stop();
    await memsvc?.stop();
    await upstream?.stop();
    await bridge?.stop();
    if (memsvc) removeDir(memsvc.dataDir);
  });

  beforeEach(() => upstream.reset());

  const client = (headers: Record<string, string> = {}, apiKey = TEST_API_KEY, url = proxy.url) =>
    new OpenAI({ baseURL: `${url}/v1`, apiKey, defaultHeaders: headers, maxRetries: 0, timeout: 10_000 });
  const messagesOf = async (id: string) => {
    const response = await memsvc.api('GET', `/api/v1/conversations/${id}/messages?page_size=100`);
    assert.equal(response.status, 200);
    return response.body.results as Array<{ role: string; name: string | null; content: string; metadata: Record<string, unknown> | null }>;
  };
  const memoryMessage = () => upstream.lastChat.body.messages.find((m: { role: string; content: string }) =>
    m.role === 'system' && m.content.startsWith('Memory from earlier conversations'));

  test('non-streaming: injects cited memory, forwards with the upstream key, stores the exchange in a new conversation', async () => {
    const { data, response } = await client().chat.completions.create({
      model: 'fake-gpt',
      messages: [{ role: 'system', content: 'You are terse.' }, { role: 'user', content: 'When is the Zephyr password rotation?' }],
    }).withResponse();
    assert.equal(data.choices[0]!.message.content, upstream.reply);
    const conversationId = response.headers.get('x-memory-conversation-id');
    assert.match(conversationId ?? '', UUID);
    assert.equal(response.headers.get('x-request-id'), `req-chatcmpl-${upstream.requests.length}`);

    const sent = upstream.lastChat;
    assert.equal(sent.headers.authorization, `Bearer ${UPSTREAM_KEY}`, 'the upstream key replaces the memsvc key');
    assert.deepEqual(sent.body.messages.map((m: { role: string }) => m.role), ['system', 'system', 'user'],
      'the memory message follows the client\'s own system message');
    assert.equal(sent.body.messages[0].content, 'You are terse.');
    const memory = sent.body.messages[1].content as string;
    assert.match(memory, /^Memory from earlier conversations/);
    assert.ok(memory.includes(ZEPHYR_FACT), memory);
    assert.match(memory, /\[ops \| \/work\/ops \| \d{4}-\d{2}-\d{2} \| assistant\]\nThe Zephyr cluster passwords rotate/);
    const tokens = Number(response.headers.get('x-memory-context-tokens'));
    assert.ok(tokens > 0 && tokens <= 2000 && Math.ceil(memory.length / 4) <= tokens + 1);

    const stored = await waitFor(() => messagesOf(conversationId!), { what: 'the exchange (2 messages) to be stored', until: (items) => items.length === 2 });
    assert.deepEqual(stored.map((m) => [m.role, m.content]),
      [['user', 'When is the Zephyr password rotation?'], ['assistant', upstream.reply]]);
    assert.equal(stored[0]!.metadata?.source, 'memsvc-proxy');
    assert.equal(stored[1]!.metadata?.model, 'fake-gpt');
    const conversation = await memsvc.api('GET', `/api/v1/conversations/${conversationId}`);
    assert.equal(conversation.body.label, 'When is the Zephyr password rotation?');
    assert.equal(conversation.body.folder, '/');
  });

  test('a scoped key: memory only from its grants, exchanges only where it may write, 403 elsewhere; a token works too', async () => {
    const key = (await memsvc.api('POST', '/api/v1/keys', {
      name: 'proxy-tenant', grants: [{ folder: '/personal/chat', access: 'write' }, { folder: '/personal', access: 'read' }],
    })).body;
    const scoped = client({}, key.key);
    const { response } = await scoped.chat.completions.create({
      model: 'fake-gpt', messages: [{ role: 'user', content: 'When is the Zephyr password rotation, and what does Zephyr eat?' }],
    }).withResponse();
    const memory = memoryMessage()?.content as string;
    assert.ok(memory.includes('sardines'), 'its readable folder is in the memory');
    assert.ok(!memory.includes(ZEPHYR_FACT) && !memory.includes('/work/ops'), 'nothing from outside its grants');
    const id = response.headers.get('x-memory-conversation-id')!;
    const stored = await waitFor(() => memsvc.api('GET', `/api/v1/conversations/${id}`), { what: 'the exchange stored', until: (r) => r.status === 200 });
    assert.equal(stored.body.folder, '/personal/chat', 'no folder header: its first write grant');

    const refused: Array<Record<string, string>> = [{ 'X-Memory-Folder': '/work/ops' }, { 'X-Memory-Folder': '/personal' }, { 'X-Memory-Conversation-Id': opsId }];
    for (const headers of refused) {
      await assert.rejects(client(headers, key.key).chat.completions.create({ model: 'fake-gpt', messages: [{ role: 'user', content: 'hi' }] }),
        (error: unknown) => error instanceof OpenAI.APIError && (error.status === 403 || error.status === 404), JSON.stringify(headers));
    }
    const token = (await memsvc.api('POST', '/api/v1/keys/me/tokens', { grants: [{ folder: '/personal/chat', access: 'write' }] },
      { authorization: `Bearer ${key.key}` })).body.token;
    const viaToken = await client({}, token).chat.completions.create({ model: 'fake-gpt', messages: [{ role: 'user', content: 'Zephyr food?' }] });
    assert.equal(viaToken.choices[0]!.message.content, upstream.reply);
  });

  test('streaming: chunks pass through, the reply is assembled from the deltas and stored after the stream', async () => {
    upstream.reply = 'Every Tuesday at nine in the morning, says memory.';
    upstream.chunkDelayMs = 5;
    const { data: stream, response } = await client().chat.completions.create({
      model: 'fake-gpt', stream: true, messages: [{ role: 'user', content: 'Remind me: Zephyr rotation day?' }],
    }).withResponse();
    assert.match(response.headers.get('content-type') ?? '', /text\/event-stream/);
    const conversationId = response.headers.get('x-memory-conversation-id')!;
    assert.match(conversationId, UUID);
    let text = '';
    let chunks = 0;
    for await (const chunk of stream) {
      chunks += 1;
      text += chunk.choices[0]?.delta?.content ?? '';
    }
    assert.equal(text, upstream.reply);
    assert.ok(chunks >= 5, `got ${chunks} chunks`);
    assert.equal(upstream.lastChat.body.stream, true);
    assert.ok(memoryMessage()?.content.includes(ZEPHYR_FACT));
    const stored = await waitFor(() => messagesOf(conversationId), { what: 'the exchange (2 messages) to be stored', until: (items) => items.length === 2 });
    assert.deepEqual(stored.map((m) => m.content), ['Remind me: Zephyr rotation day?', upstream.reply]);
  });

  test('X-Memory-Conversation-Id appends to that conversation; an unknown id is a 404 before anything is forwarded', async () => {
    const { response } = await client({ 'X-Memory-Conversation-Id': opsId }).chat.completions.create({
      model: 'fake-gpt', messages: [{ role: 'user', content: 'And the staging cluster?' }],
    }).withResponse();
    assert.equal(response.headers.get('x-memory-conversation-id'), opsId);
    const stored = await waitFor(() => messagesOf(opsId), { what: 'the exchange appended (4 messages)', until: (items) => items.length === 4 });
    assert.deepEqual(stored.slice(2).map((m) => m.content), ['And the staging cluster?', upstream.reply]);
    // Control for the check below: the upstream's request log saw this forwarded request.
    assert.ok(upstream.chatRequests.some((request) => request.body.messages.at(-1).content === 'And the staging cluster?'));

    const before = upstream.requests.length;
    const unknown = '6f1c2b8e-4d3a-4e5f-9a7b-0c1d2e3f4a5b';
    await assert.rejects(
      client({ 'X-Memory-Conversation-Id': unknown }).chat.completions.create({ model: 'm', messages: [{ role: 'user', content: 'hi' }] }),
      (error: unknown) => {
        assert.ok(error instanceof OpenAI.NotFoundError);
        assert.equal(error.status, 404);
        assert.equal(error.code, 'conversation_not_found');
        assert.equal(error.param, 'X-Memory-Conversation-Id');
        assert.match(error.message, new RegExp(`Conversation not found: ${unknown}`));
        return true;
      });
    assert.equal(upstream.requests.length, before, 'nothing was forwarded');
  });

  test('the user message\'s name is stored with the exchange; one the store would refuse is left out, the exchange still stored', async () => {
    const exchange = async (name: string) => {
      const { response } = await client().chat.completions.create({
        model: 'fake-gpt', messages: [{ role: 'user', name: 'Someone Else', content: 'Earlier question' }, { role: 'assistant', content: 'Earlier answer' },
          { role: 'user', name, content: `What did ${name.slice(0, 10)} say about the Zephyr cluster?` }],
      }).withResponse();
      assert.equal(upstream.lastChat.body.messages.at(-1).name, name, 'forwarded as sent');
      const stored = await waitFor(() => messagesOf(response.headers.get('x-memory-conversation-id')!),
        { what: 'the exchange (2 messages) to be stored', until: (items) => items.length === 2 });
      return stored.map((m) => [m.role, m.name]);
    };
    assert.deepEqual(await exchange(' Alice '), [['user', 'Alice'], ['assistant', null]]);
    assert.deepEqual(await exchange('x'.repeat(101)), [['user', null], ['assistant', null]]);
  });

  test('X-Memory-Label + X-Memory-Folder reuse the newest active conversation with that label in that folder', async () => {
    const headers = { 'X-Memory-Label': 'project x', 'X-Memory-Folder': '/work/x' };
    const first = await client(headers).chat.completions.create({ model: 'm', messages: [{ role: 'user', content: 'first question' }] }).withResponse();
    const second = await client(headers).chat.completions.create({ model: 'm', messages: [{ role: 'user', content: 'second question' }] }).withResponse();
    const id = first.response.headers.get('x-memory-conversation-id')!;
    assert.match(id, UUID);
    assert.equal(second.response.headers.get('x-memory-conversation-id'), id);
    const stored = await waitFor(() => messagesOf(id), { what: 'the exchange appended (4 messages)', until: (items) => items.length === 4 });
    assert.deepEqual(stored.map((m) => m.content), ['first question', upstream.reply, 'second question', upstream.reply]);
    const conversation = await memsvc.api('GET', `/api/v1/conversations/${id}`);
    assert.equal(conversation.body.label, 'project x');
    assert.equal(conversation.body.folder, '/work/x');

    // Another folder (even a subfolder) is another conversation; percent-encoded values are decoded.
    const other = await client({ 'X-Memory-Label': 'project%20x', 'X-Memory-Folder': '/work/x/sub' }).chat.completions
      .create({ model: 'm', messages: [{ role: 'user', content: 'third question' }] }).withResponse();
    const otherId = other.response.headers.get('x-memory-conversation-id')!;
    assert.notEqual(otherId, id);
    // The exchange is stored after the answer (docs/proxy.md): a read right away may come before it.
    await proxy.proxy.recorder.settled();
    const otherConversation = await memsvc.api('GET', `/api/v1/conversations/${otherId}`);
    assert.equal(otherConversation.body.label, 'project x');
    assert.equal(otherConversation.body.folder, '/work/x/sub');
  });

  test('X-Memory-Budget caps the injected text; X-Memory-Exclude-Folders leaves folders out; X-Memory-Labels is accepted', async () => {
    const filler = Array.from({ length: 40 }, (_, i) => `Zephyr note ${i}: the Zephyr cluster runs release train ${i} with care.`);
    const bulk = await memsvc.api('POST', '/api/v1/conversations', {
      label: 'zephyr notes', folder: '/work/notes', messages: filler.map((content) => ({ role: 'user', content })),
    });
    assert.equal(bulk.status, 201);

    const { response } = await client({ 'X-Memory-Budget': '100', 'X-Memory-Disable': 'false' }).chat.completions
      .create({ model: 'm', messages: [{ role: 'user', content: 'What about the Zephyr cluster?' }] }).withResponse();
    const small = memoryMessage()?.content as string;
    assert.ok(small, 'something was injected');
    assert.ok([...small].length <= 400, `${[...small].length} characters for a budget of 100 tokens`);
    assert.ok(Number(response.headers.get('x-memory-context-tokens')) <= 100);

    await client({ 'X-Memory-Budget': '20000' }).chat.completions
      .create({ model: 'm', messages: [{ role: 'user', content: 'What about the Zephyr cluster?' }] });
    const large = memoryMessage()?.content as string;
    assert.ok(large.length > small.length);
    assert.ok(large.includes('sardines'), 'the personal folder is recalled without an exclusion');

    await client({ 'X-Memory-Exclude-Folders': '/personal, /work/notes', 'X-Memory-Labels': 'ops,pets', 'X-Memory-Budget': '20000' })
      .chat.completions.create({ model: 'm', messages: [{ role: 'user', content: 'What about the Zephyr cluster?' }] });
    const filtered = memoryMessage()?.content as string;
    assert.ok(filtered.includes(ZEPHYR_FACT));
    assert.ok(!filtered.includes('sardines') && !filtered.includes('release train'), filtered);
  });

  test('invalid memory headers are 400s in OpenAI\'s shape, naming the header', async () => {
    const cases: Array<[Record<string, string>, string]> = [
      [{ 'X-Memory-Budget': 'lots' }, 'X-Memory-Budget'],
      [{ 'X-Memory-Budget': '50' }, 'X-Memory-Budget'],
      [{ 'X-Memory-Disable': 'perhaps' }, 'X-Memory-Disable'],
      [{ 'X-Memory-Exclude-Folders': 'relative/path' }, 'X-Memory-Exclude-Folders'],
      [{ 'X-Memory-Folder': '/a/../b' }, 'X-Memory-Folder'],
      [{ 'X-Memory-Label': 'x'.repeat(500) }, 'X-Memory-Label'],
      [{ 'X-Upstream-Authorization': 'Bearer sk-mine' }, 'X-Upstream-Authorization'],
    ];
    const before = upstream.requests.length;
    for (const [headers, param] of cases) {
      await assert.rejects(client(headers).chat.completions.create({ model: 'm', messages: [{ role: 'user', content: 'hi' }] }),
        (error: unknown) => {
          assert.ok(error instanceof OpenAI.BadRequestError, `${JSON.stringify(headers)}: ${String(error)}`);
          assert.equal(error.param, param);
          assert.equal(error.type, 'invalid_request_error');
          return true;
        });
    }
    const raw = await fetch(`${proxy.url}/v1/chat/completions`, {
      method: 'POST', headers: { authorization: `Bearer ${TEST_API_KEY}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'm', messages: [] }),
    });
    assert.equal(raw.status, 400);
    assert.deepEqual(await raw.json(), { error: { message: 'messages must be a non-empty array', type: 'invalid_request_error', param: 'messages', code: 'invalid_request' } });
    assert.equal(upstream.requests.length, before, 'nothing was forwarded');
    // Control: the same request with valid headers is forwarded, and the same probe sees it.
    await client({ 'X-Memory-Budget': '500' }).chat.completions.create({ model: 'm', messages: [{ role: 'user', content: 'hi' }] });
    assert.equal(upstream.requests.length, before + 1);
  });

  test('X-Memory-Disable: true forwards the messages untouched and stores nothing', async () => {
    // An earlier test's exchange may still be on its way to the store: count after it lands.
    await proxy.proxy.recorder.settled();
    const before = (await memsvc.api('GET', '/api/v1/conversations/count')).body;
    const messages = [{ role: 'user' as const, content: 'Zephyr? (private question)' }];
    const { response } = await client({ 'X-Memory-Disable': 'true', 'X-Memory-Conversation-Id': opsId }).chat.completions
      .create({ model: 'm', messages }).withResponse();
    assert.equal(response.headers.get('x-memory-conversation-id'), null);
    assert.deepEqual(upstream.lastChat.body.messages, messages);
    await proxy.proxy.recorder.settled();
    assert.deepEqual((await memsvc.api('GET', '/api/v1/conversations/count')).body, before);
    assert.ok(!(await messagesOf(opsId)).some((m) => m.content.includes('private question')));

    // Control: without the header the same exchange is stored, and the same probe sees it once the recorder settles.
    await client({ 'X-Memory-Conversation-Id': opsId }).chat.completions
      .create({ model: 'm', messages: [{ role: 'user', content: 'Zephyr? (public question)' }] });
    await proxy.proxy.recorder.settled();
    assert.ok((await messagesOf(opsId)).some((m) => m.content.includes('public question')));
  });

  test('upstream 500 and 429 come back with their status and body', async () => {
    upstream.failWith = { status: 500, body: JSON.stringify({ error: { message: 'The model crashed', type: 'server_error', param: null, code: 'boom' } }) };
    await assert.rejects(client().chat.completions.create({ model: 'm', messages: [{ role: 'user', content: 'hi' }] }),
      (error: unknown) => {
        assert.ok(error instanceof OpenAI.InternalServerError);
        assert.equal(error.status, 500);
        assert.equal(error.code, 'boom');
        assert.match(error.message, /The model crashed/);
        return true;
      });
    upstream.failWith = {
      status: 429, headers: { 'retry-after': '7', 'x-ratelimit-remaining-requests': '0' },
      body: JSON.stringify({ error: { message: 'Slow down', type: 'rate_limit_error', param: null, code: 'rate_limit_exceeded' } }),
    };
    await assert.rejects(client().chat.completions.create({ model: 'm', stream: true, messages: [{ role: 'user', content: 'hi' }] }),
      (error: unknown) => {
        assert.ok(error instanceof OpenAI.RateLimitError);
        assert.equal(error.status, 429);
        assert.equal(error.code, 'rate_limit_exceeded');
        assert.equal(error.headers?.get('retry-after'), '7');
        assert.equal(error.headers?.get('x-ratelimit-remaining-requests'), '0');
        return true;
      });
    // A body that is not OpenAI-shaped is made so.
    upstream.failWith = { status: 503, body: 'upstream overloaded' };
    const raw = await fetch(`${proxy.url}/v1/chat/completions`, {
      method: 'POST', headers: { authorization: `Bearer ${TEST_API_KEY}`, 'content-type': 'application/json' },
      body: JSON.stringify({ model: 'm', messages: [{ role: 'user', content: 'hi' }] }),
    });
    assert.equal(raw.status, 503);
    assert.deepEqual(await raw.json(), { error: {
      message: 'The upstream answered HTTP 503: upstream overloaded', type: 'api_error', param: null, code: 'upstream_error' } });
  });

  test('a wrong or missing memsvc key is a 401 in OpenAI\'s shape', async () => {
    await assert.rejects(client({}, 'wrong-key').chat.completions.create({ model: 'm', messages: [{ role: 'user', content: 'hi' }] }),
      (error: unknown) => error instanceof OpenAI.AuthenticationError && error.status === 401 && error.type === 'authentication_error');
    const raw = await fetch(`${proxy.url}/v1/models`);
    assert.equal(raw.status, 401);
    const body = await raw.json() as { error: { type: string; code: string } };
    assert.equal(body.error.type, 'authentication_error');
    assert.equal(body.error.code, 'invalid_api_key');
  });

  test('GET /v1/models is forwarded', async () => {
    const models = await client().models.list();
    assert.deepEqual(models.data.map((model) => model.id), ['fake-gpt']);
    assert.equal(upstream.requests.at(-1)!.headers.authorization, `Bearer ${UPSTREAM_KEY}`);
  });

  test('a client abort mid-stream closes the upstream request; nothing is stored', async () => {
    upstream.stallStream = true;
    const abort = new AbortController();
    const { data: stream, response } = await client().chat.completions.create({
      model: 'm', stream: true, messages: [{ role: 'user', content: 'A question I will walk away from' }],
    }, { signal: abort.signal }).withResponse();
    const conversationId = response.headers.get('x-memory-conversation-id')!;
    const iterator = stream[Symbol.asyncIterator]();
    // The upstream stalls after its first chunks: they arrive as they are sent, not at the end.
    const first = await iterator.next();
    assert.equal(first.done, false);
    abort.abort();
    await iterator.next().catch(() => undefined);
    const request = upstream.lastChat;
    await waitFor(async () => request.closedEarly, { what: 'the upstream request to be closed early', until: (closed) => closed });
    await proxy.proxy.recorder.settled();
    assert.equal((await memsvc.api('GET', `/api/v1/conversations/${conversationId}`)).status, 404);

    // Control: the same stream read to its end is stored under the id in its header, where the same probe finds it.
    upstream.stallStream = false;
    const { data: whole, response: wholeResponse } = await client().chat.completions.create({
      model: 'm', stream: true, messages: [{ role: 'user', content: 'A question I will wait for' }],
    }).withResponse();
    for await (const chunk of whole) void chunk;
    await proxy.proxy.recorder.settled();
    const storedId = wholeResponse.headers.get('x-memory-conversation-id')!;
    assert.equal((await memsvc.api('GET', `/api/v1/conversations/${storedId}`)).status, 200);
  });

  test('a client abort while waiting for a non-streaming answer closes the upstream request', async () => {
    upstream.hang = true;
    const abort = new AbortController();
    const pending = client().chat.completions.create({ model: 'm', messages: [{ role: 'user', content: 'never mind' }] },
      { signal: abort.signal });
    await waitFor(async () => upstream.chatRequests.at(-1)?.body.messages.at(-1).content, { what: 'the upstream to receive "never mind"', until: (c) => c === 'never mind' });
    abort.abort();
    await assert.rejects(pending, (error: unknown) => error instanceof OpenAI.APIUserAbortError);
    const request = upstream.lastChat;
    await waitFor(async () => request.closedEarly, { what: 'the upstream request to be closed early', until: (closed) => closed });
  });
});

describe('chat proxy: upstream failures', () => {
  let bridge: FakeBridge;
  let memsvc: RunningService;
  let upstream: FakeOpenAiUpstream;

  before(async () => {
    bridge = await new FakeBridge().start();
    memsvc = await startService({ bridge: { url: bridge.url } });
    upstream = await new FakeOpenAiUpstream().start();
  });
  after(async () => {
    await memsvc?.stop();
    await upstream?.stop();
    await bridge?.stop();
    if (memsvc) removeDir(memsvc.dataDir);
  });
  const openai = (url: string) => new OpenAI({ baseURL: `${url}/v1`, apiKey: TEST_API_KEY, maxRetries: 0 });
  const ask = (url: string) => openai(url).chat.completions.create({ model: 'm', messages: [{ role: 'user', content: 'hello?' }] });
  const askStream = (url: string) =>
    openai(url).chat.completions.create({ model: 'm', stream: true, messages: [{ role: 'user', content: 'hello?' }] });

  test('an upstream that does not answer in time is a 504; one that cannot be reached a 502', async () => {
    upstream.hang = true;
    const slow = await startProxy(memsvc, { upstream_url: upstream.baseUrl, timeout_ms: 300 });
    try {
      await assert.rejects(ask(slow.url), (error: unknown) =>
        error instanceof OpenAI.APIError && error.status === 504 && error.code === 'upstream_timeout');
      assert.ok(upstream.lastChat.closedEarly || await waitFor(async () => upstream.lastChat.closedEarly, { what: 'the upstream request to be closed early', until: (c) => c }));
    } finally {
      await slow.stop();
    }
    const refused = await startProxy(memsvc, { upstream_url: `http://127.0.0.1:${await unusedPort()}/v1` });
    try {
      await assert.rejects(askStream(refused.url), (error: unknown) =>
        error instanceof OpenAI.APIError && error.status === 502 && error.code === 'upstream_unreachable'
        && /ECONNREFUSED/.test(error.message));
    } finally {
      await refused.stop();
    }
  });

  test('a stream that stalls past the timeout ends with an error event the client raises', async () => {
    upstream.hang = false;
    upstream.stallStream = true;
    const slow = await startProxy(memsvc, { upstream_url: upstream.baseUrl, timeout_ms: 300 });
    try {
      const stream = await askStream(slow.url);
      await assert.rejects((async () => { for await (const _ of stream) { /* drain */ } })(),
        (error: unknown) => error instanceof OpenAI.APIError && /did not answer within 300 ms/.test(error.message));
      await waitFor(async () => upstream.lastChat.closedEarly, { what: 'the upstream request to be closed early', until: (closed) => closed });
    } finally {
      await slow.stop();
    }
  });
});

describe('chat proxy: storing exchanges', () => {
  let bridge: FakeBridge;
  let memsvc: RunningService;
  let upstream: FakeOpenAiUpstream;

  before(async () => {
    bridge = await new FakeBridge().start();
    memsvc = await startService({ bridge: { url: bridge.url } });
    upstream = await new FakeOpenAiUpstream().start();
  });
  after(async () => {
    await memsvc?.stop();
    await upstream?.stop();
    await bridge?.stop();
    if (memsvc) removeDir(memsvc.dataDir);
  });

  /** The real service whose appends fail `failures` times first. */
  const flaky = (failures: { count: number; error?: () => Error }): ProxyConversations => {
    const real = memsvc.controller.conversations;
    return Object.assign(Object.create(real) as ProxyConversations, {
      appendMessages: async (id: string, inputs: Parameters<ProxyConversations['appendMessages']>[1]) => {
        if (failures.count > 0) {
          failures.count -= 1;
          throw failures.error?.() ?? new Error('SQLITE_BUSY: database is locked');
        }
        return real.appendMessages(id, inputs);
      },
      // A new conversation is created with its first exchange, so creating fails the same way.
      create: async (input: Parameters<ProxyConversations['create']>[0]) => {
        if (failures.count > 0) {
          failures.count -= 1;
          throw failures.error?.() ?? new Error('SQLITE_BUSY: database is locked');
        }
        return real.create(input);
      },
    });
  };
  /** The conversation's messages; none while it does not exist yet. */
  const messagesOf = async (id: string) => ((await memsvc.api('GET', `/api/v1/conversations/${id}/messages`)).body.results ?? []) as
    Array<{ role: string; content: string }>;

  test('a failing store does not touch the answer; the exchange is retried from the spool until stored', async () => {
    const spoolDir = mkdtempSync(join(tmpdir(), 'memsvc-spool-'));
    const failures = { count: 2 };
    const running = await startProxy(memsvc, { upstream_url: upstream.baseUrl, store_retry_base_ms: 30 },
      { conversations: flaky(failures), spoolDir });
    try {
      const { data, response } = await new OpenAI({ baseURL: `${running.url}/v1`, apiKey: TEST_API_KEY, maxRetries: 0 })
        .chat.completions.create({ model: 'm', messages: [{ role: 'user', content: 'store me waitFor' }] }).withResponse();
      assert.equal(data.choices[0]!.message.content, upstream.reply);
      const id = response.headers.get('x-memory-conversation-id')!;
      const stored = await waitFor(() => messagesOf(id), { what: 'the exchange (2 messages) to be stored', until: (items) => items.length === 2 });
      assert.deepEqual(stored.map((m) => m.content), ['store me waitFor', upstream.reply]);
      assert.equal(failures.count, 0);
      await waitFor(async () => readdirSync(spoolDir).filter((n) => n.endsWith('.json')), { what: 'the spool to be empty', until: (files) => files.length === 0 });
      assert.equal(running.proxy.recorder.size, 0);
    } finally {
      await running.stop();
      removeDir(spoolDir);
    }
  });

  test('exchanges left in the spool are stored at the next start, once, even when replayed twice', async () => {
    const spoolDir = mkdtempSync(join(tmpdir(), 'memsvc-spool-'));
    const failures = { count: 1000 };
    const first = await startProxy(memsvc, { upstream_url: upstream.baseUrl, store_retry_base_ms: 10_000 },
      { conversations: flaky(failures), spoolDir });
    let id: string;
    let spooled: string[];
    try {
      const { response } = await new OpenAI({ baseURL: `${first.url}/v1`, apiKey: TEST_API_KEY, maxRetries: 0 })
        .chat.completions.create({ model: 'm', messages: [{ role: 'user', content: 'survive a restart' }] }).withResponse();
      id = response.headers.get('x-memory-conversation-id')!;
      spooled = await waitFor(async () => readdirSync(spoolDir).filter((n) => n.endsWith('.json')), { what: 'one file in the spool', until: (files) => files.length === 1 });
      await first.proxy.recorder.settled();
    } finally {
      await first.stop();
    }
    // Not stored yet, and no empty conversation stands in for it.
    assert.equal((await memsvc.api('GET', `/api/v1/conversations/${id}`)).status, 404);
    const saved = readFileSync(join(spoolDir, spooled[0]!), 'utf8');

    const second = await startProxy(memsvc, { upstream_url: upstream.baseUrl }, { spoolDir });
    try {
      const stored = await waitFor(() => messagesOf(id), { what: 'the exchange (2 messages) to be stored', until: (items) => items.length === 2 });
      assert.deepEqual(stored.map((m) => m.content), ['survive a restart', upstream.reply]);
      await waitFor(async () => readdirSync(spoolDir).filter((n) => n.endsWith('.json')), { what: 'the spool to be empty', until: (files) => files.length === 0 });
    } finally {
      await second.stop();
    }
    // A crash after storing but before the spool file went: the replay finds its messages and stores nothing twice.
    writeFileSync(join(spoolDir, spooled[0]!), saved);
    const third = await startProxy(memsvc, { upstream_url: upstream.baseUrl }, { spoolDir });
    try {
      await waitFor(async () => readdirSync(spoolDir).filter((n) => n.endsWith('.json')), { what: 'the spool to be empty', until: (files) => files.length === 0 });
      assert.equal((await messagesOf(id)).length, 2);
    } finally {
      await third.stop();
      removeDir(spoolDir);
    }
  });

  test('an exchange the store refuses for good moves to the spool\'s failed directory', async () => {
    const spoolDir = mkdtempSync(join(tmpdir(), 'memsvc-spool-'));
    const running = await startProxy(memsvc, { upstream_url: upstream.baseUrl, store_retry_base_ms: 10 }, { spoolDir });
    try {
      const { response } = await new OpenAI({ baseURL: `${running.url}/v1`, apiKey: TEST_API_KEY, maxRetries: 0 })
        .chat.completions.create({ model: 'm', messages: [{ role: 'user', content: 'x' }] }).withResponse();
      assert.match(response.headers.get('x-memory-conversation-id') ?? '', UUID);
      await running.proxy.recorder.settled();
      // Deleted between the answer and a replay: 404 from the store, not worth retrying.
      const id = response.headers.get('x-memory-conversation-id')!;
      assert.equal((await memsvc.api('DELETE', `/api/v1/conversations/${id}`)).status, 200);
      writeFileSync(join(spoolDir, 'c0ffee00-0000-4000-8000-000000000001.json'), JSON.stringify({
        id: 'c0ffee00-0000-4000-8000-000000000001', target: { conversationId: id }, receivedAt: new Date().toISOString(),
        user: { content: 'q', timestamp: new Date().toISOString() }, assistant: { content: 'a', timestamp: new Date().toISOString() },
      }));
    } finally {
      await running.stop();
    }
    const replay = await startProxy(memsvc, { upstream_url: upstream.baseUrl }, { spoolDir });
    try {
      await waitFor(async () => readdirSync(join(spoolDir, 'failed')), { what: 'one file in the spool\'s failed directory', until: (files) => files.length === 1 });
      await waitFor(async () => readdirSync(spoolDir).filter((n) => n.endsWith('.json')), { what: 'the spool to be empty', until: (files) => files.length === 0 });
      const failed = JSON.parse(readFileSync(join(spoolDir, 'failed', readdirSync(join(spoolDir, 'failed'))[0]!), 'utf8'));
      assert.match(failed.failure, /Conversation not found/);
    } finally {
      await replay.stop();
      removeDir(spoolDir);
    }
  });
});

interface RunningProxy {
  proxy: ProxyApp;
  url: string;
  stop(): Promise<void>;
}

/** The proxy app over a running controller's services, listening on an ephemeral port. */
async function startProxy(memsvc: RunningService, proxyConfig: DeepPartial<Config['proxy']>,
  extra: { conversations?: ProxyConversations; spoolDir?: string } = {}): Promise<RunningProxy> {
  const config = loadConfig({
    file: '/nonexistent', env: {},
    overrides: { server: { data_dir: memsvc.dataDir }, proxy: { enabled: true, port: 0, ...proxyConfig } },
  });
  const proxy = await buildProxyApp({
    config, authenticator: memsvc.controller.keys, logger: false,
    conversations: extra.conversations ?? memsvc.controller.conversations,
    scoped: (scope) => {
      const features = memsvc.controller.features.for(scope);
      return { conversations: extra.conversations ?? features.conversations, context: features.context };
    },
    ...(extra.spoolDir ? { spoolDir: extra.spoolDir } : {}),
  });
  await proxy.app.listen({ host: '127.0.0.1', port: 0 });
  const url = `http://127.0.0.1:${(proxy.app.server.address() as AddressInfo).port}`;
  return { proxy, url, stop: () => proxy.app.close() };
}
