import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import {
  createMemsvcClient, MemsvcAuthError, MemsvcNotFoundError, MemsvcRateLimitError, MemsvcUnavailableError,
  MemsvcValidationError, type MemsvcClient,
} from '../../src/client/index.js';
import { generateClientSchema, SCHEMA_FILE } from '../../scripts/generate-client-schema.js';
import { unusedPort } from '../helpers/fake-bridge.js';
import { type RunningService, startService } from '../helpers/service-harness.js';

describe('typed client against a real server', () => {
  let server: RunningService;
  let client: MemsvcClient;
  before(async () => {
    server = await startService();
    client = createMemsvcClient({ baseUrl: server.baseUrl, apiKey: server.apiKey });
  });
  after(() => server.stop());

  test('creates, reads, appends and searches with typed bodies', async () => {
    const created = await client.conversations.create({
      label: 'client test', folder: '/client', messages: [{ role: 'user', content: 'The parquet writer drops null columns' }],
    });
    assert.equal(created.label, 'client test');
    await client.conversations.append(created.id, [{ role: 'assistant', content: 'Set the schema explicitly' }]);
    const read = await client.conversations.get(created.id);
    assert.equal(read.message_count, 2);
    const found = await client.search.query({ query: 'parquet null columns', mode: 'keyword' });
    assert.equal(found.results[0]!.conversation_id, created.id);
    const context = await client.assembleContext({ query: 'parquet', format: 'messages' });
    assert.ok(Array.isArray(context));
  });

  test('async iterators walk every page of conversations, messages and hits', async () => {
    const messages = Array.from({ length: 7 }, (_, i) => ({ role: 'user' as const, content: `zebra fact number ${i}` }));
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) {
      ids.push((await client.conversations.create({ label: `paged ${i}`, folder: '/paged', messages })).id);
    }
    const listed: string[] = [];
    for await (const item of client.conversations.listAll({ folder: '/paged', page_size: 2 })) listed.push(item.conversation_id);
    assert.deepEqual([...listed].sort(), [...ids].sort());

    const contents: string[] = [];
    for await (const message of client.conversations.messages(ids[0]!, 3)) contents.push(message.content);
    assert.deepEqual(contents, messages.map((m) => m.content));

    let hits = 0;
    for await (const hit of client.search.queryAll({ query: 'zebra', mode: 'keyword', filters: { folder: '/paged' } }, 4)) {
      assert.equal(hit.folder, '/paged');
      hits++;
    }
    assert.equal(hits, 35);
  });

  test('failures are typed errors carrying the status and code', async () => {
    await assert.rejects(client.conversations.get('00000000-0000-4000-8000-000000000000'),
      (error) => error instanceof MemsvcNotFoundError && error.status === 404 && error.code === 'CONVERSATION_NOT_FOUND');
    await assert.rejects(client.conversations.create({ label: '', messages: [] }),
      (error) => error instanceof MemsvcValidationError && error.status === 400);
    const wrongKey = createMemsvcClient({ baseUrl: server.baseUrl, apiKey: 'wrong' });
    await assert.rejects(wrongKey.stats(), (error) => error instanceof MemsvcAuthError && error.status === 401);
    const nowhere = createMemsvcClient({ baseUrl: `http://127.0.0.1:${await unusedPort()}`, apiKey: 'x' });
    await assert.rejects(nowhere.stats(), (error) => error instanceof MemsvcUnavailableError && error.status === 0);
  });

  test('tools are typed by their own schemas; a tool failure is a typed error with the envelope\'s code and message', async () => {
    const stored = await client.tools.call('memory_store', { label: 'tool call', messages: [{ role: 'user', content: 'typed tools' }] });
    const id: string = stored.data.conversation_id;
    assert.equal(stored.data.message_count, 1);
    const metadata = await client.tools.call('memory_get_context', { conversation_id: id });
    assert.equal(metadata.data.label, 'tool call');
    await assert.rejects(client.tools.call('memory_get_context', { conversation_id: '00000000-0000-4000-8000-000000000000' }),
      (error) => error instanceof MemsvcNotFoundError && error.code === 'CONVERSATION_NOT_FOUND'
        && error.message === 'Conversation not found: 00000000-0000-4000-8000-000000000000');
    await assert.rejects(client.tools.call('memory_store', { label: 'x' } as never),
      (error) => error instanceof MemsvcValidationError && error.code === 'VALIDATION_ERROR' && error.message === 'messages is required');
  });

  test('the committed schema types match the routes (run npm run client:generate when this fails)', async () => {
    assert.equal(readFileSync(SCHEMA_FILE, 'utf8'), await generateClientSchema());
  });
});

describe('typed client and the rate limit', () => {
  let server: RunningService;
  before(async () => {
    server = await startService({ overrides: { rate_limit: { requests_per_second: 1, burst_size: 1 } } });
  });
  after(() => server.stop());

  test('a 429 is retried after Retry-After; with retries off it is a MemsvcRateLimitError', async () => {
    const statuses: number[] = [];
    const counting: typeof fetch = async (input, init) => {
      const response = await fetch(input, init);
      statuses.push(response.status);
      return response;
    };
    const patient = createMemsvcClient({ baseUrl: server.baseUrl, apiKey: server.apiKey, fetch: counting });
    await patient.stats();
    const second = await patient.stats();
    assert.equal(typeof second.total_conversations, 'number');
    assert.ok(statuses.includes(429), `a 429 was answered and retried: ${statuses.join(',')}`);
    assert.equal(statuses.at(-1), 200);

    const impatient = createMemsvcClient({ baseUrl: server.baseUrl, apiKey: server.apiKey, retry: { maxRetries: 0 } });
    await impatient.stats().catch(() => undefined);
    await assert.rejects(impatient.stats(), (error) =>
      error instanceof MemsvcRateLimitError && error.status === 429 && (error.retryAfterMs ?? 0) > 0);
  });
});
