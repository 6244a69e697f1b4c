import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { type RunningService, startService } from '../helpers/service-harness.js';
import { countConversations, createConversation } from '../helpers/fixtures.js';

const message = (content: string) => ({ role: 'user', content });

describe('default limits', () => {
  let server: RunningService;
  before(async () => { server = await startService(); });
  after(() => server.stop());

  const count = async () => (await server.api('GET', '/api/v1/conversations/count')).body.count as number;

  it('accepts a message of exactly 100,000 characters and refuses 100,001', async () => {
    const accepted = await server.api('POST', '/api/v1/conversations', { label: 'long', messages: [message('a'.repeat(100_000))] });
    assert.equal(accepted.status, 201, accepted.text);
    const before = await count();
    const refused = await server.api('POST', '/api/v1/conversations', { label: 'long', messages: [message('a'.repeat(100_001))] });
    assert.equal(refused.status, 400);
    assert.equal(refused.body.code, 'MESSAGE_TOO_LONG');
    assert.match(refused.body.error, /messages\[0\]\.content/);
    assert.equal(await count(), before);

    const appended = await server.api('POST', `/api/v1/conversations/${accepted.body.id}/messages`,
      { messages: [message('b'.repeat(100_001))] });
    assert.equal(appended.status, 400);
    assert.equal(appended.body.code, 'MESSAGE_TOO_LONG');
  });

  it('counts characters, not UTF-16 units: 100,000 emoji are accepted', async () => {
    const response = await server.api('POST', '/api/v1/conversations', { label: 'emoji', messages: [message('😀'.repeat(100_000))] });
    assert.equal(response.status, 201, response.text);
    const refused = await server.api('POST', '/api/v1/conversations', { label: 'emoji', messages: [message('😀'.repeat(100_001))] });
    assert.equal(refused.body.code, 'MESSAGE_TOO_LONG');
  });

  it('refuses 10,001 messages at create', async () => {
    const before = await count();
    const response = await server.api('POST', '/api/v1/conversations', {
      label: 'many', messages: Array.from({ length: 10_001 }, (_, i) => message(`m${i}`)),
    });
    assert.equal(response.status, 400, response.text);
    assert.equal(response.body.code, 'TOO_MANY_MESSAGES');
    assert.equal(await count(), before);
    // Control: a create the limit allows is seen by the same probe.
    assert.equal((await server.api('POST', '/api/v1/conversations', { label: 'many', messages: [message('m0')] })).status, 201);
    assert.equal(await count(), before + 1);
  });

  it('refuses a label over 200 characters and accepts 200', async () => {
    const ok = await server.api('POST', '/api/v1/conversations', { label: 'L'.repeat(200), messages: [] });
    assert.equal(ok.status, 201, ok.text);
    const refused = await server.api('POST', '/api/v1/conversations', { label: 'L'.repeat(201), messages: [] });
    assert.equal(refused.status, 400);
    assert.match(refused.body.error, /label/);
    const relabel = await server.api('PUT', `/api/v1/conversations/${ok.body.id}/label`, { label: 'L'.repeat(201), folder: '/' });
    assert.equal(relabel.status, 400);
  });

  it('refuses message metadata over 16 KiB', async () => {
    const refused = await server.api('POST', '/api/v1/conversations', {
      label: 'meta', messages: [{ role: 'user', content: 'x', metadata: { blob: 'x'.repeat(17 * 1024) } }],
    });
    assert.equal(refused.status, 400);
    assert.match(refused.body.error, /messages\[0\]\.metadata/);
    const accepted = await server.api('POST', '/api/v1/conversations', {
      label: 'meta', messages: [{ role: 'user', content: 'x', metadata: { blob: 'x'.repeat(15 * 1024) } }],
    });
    assert.equal(accepted.status, 201, accepted.text);
  });
});

describe('per-conversation message limit (configured to 5)', () => {
  let server: RunningService;
  before(async () => { server = await startService({ overrides: { limits: { max_messages_per_conversation: 5 } } }); });
  after(() => server.stop());

  it('fills up to the limit by appending, then refuses more without storing any', async () => {
    const id = await createConversation(server, { messages: [message('one'), message('two'), message('three')] });
    const append = (n: number) => server.api('POST', `/api/v1/conversations/${id}/messages`,
      { messages: Array.from({ length: n }, (_, i) => message(`extra ${i}`)) });

    const over = await append(3);
    assert.equal(over.status, 400);
    assert.equal(over.body.code, 'TOO_MANY_MESSAGES');
    assert.equal((await append(2)).status, 201);
    const full = await append(1);
    assert.equal(full.status, 400);
    assert.equal(full.body.code, 'TOO_MANY_MESSAGES');

    const stored = await server.api('GET', `/api/v1/conversations/${id}?include=messages`);
    assert.equal(stored.body.message_count, 5);
    assert.equal(stored.body.messages.length, 5);
    assert.equal(stored.body.word_count, 1 + 1 + 1 + 2 + 2);
  });

  it('refuses a create with more messages than the limit', async () => {
    const response = await server.api('POST', '/api/v1/conversations',
      { label: 'six', messages: Array.from({ length: 6 }, () => message('m')) });
    assert.equal(response.status, 400);
    assert.equal(response.body.code, 'TOO_MANY_MESSAGES');
    assert.equal(await countConversations(server, '?label=six'), 0);
    // Control: five messages are within the limit; that create is seen by the same probe.
    assert.equal((await server.api('POST', '/api/v1/conversations',
      { label: 'six', messages: Array.from({ length: 5 }, () => message('m')) })).status, 201);
    assert.equal(await countConversations(server, '?label=six'), 1);
  });
});
