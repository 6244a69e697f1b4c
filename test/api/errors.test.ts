import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { type ApiResponse, type RunningService, startService } from '../helpers/service-harness.js';
import { conversationBody, countConversations, createConversation, UNKNOWN_ID } from '../helpers/fixtures.js';
import { ManualClock } from '../helpers/fakes.js';

/** Every error is JSON with a message and a stable code. */
function assertError(response: ApiResponse, status: number, code?: string, message?: string | RegExp): void {
  assert.equal(response.status, status, `expected ${status}, got ${response.status}: ${response.text}`);
  assert.match(response.headers.get('content-type') ?? '', /application\/json/);
  assert.equal(typeof response.body?.error, 'string');
  assert.equal(typeof response.body?.code, 'string');
  if (code !== undefined) assert.equal(response.body.code, code);
  if (typeof message === 'string') assert.equal(response.body.error, message);
  else if (message) assert.match(response.body.error, message);
}

describe('400 on bad create bodies', () => {
  let server: RunningService;
  before(async () => { server = await startService(); });
  after(() => server.stop());

  const create = (body: unknown) => server.api('POST', '/api/v1/conversations', body);

  it('invalid JSON', async () => {
    assertError(await create('{"label": "x", '), 400, 'INVALID_JSON');
    assertError(await create('{label: x}'), 400, 'INVALID_JSON');
  });

  it('missing required fields are named', async () => {
    assertError(await create({ messages: [] }), 400, 'VALIDATION_ERROR', 'label is required');
    assertError(await create({ label: 'x' }), 400, 'VALIDATION_ERROR', 'messages is required');
    assertError(await create({ label: 'x', messages: [{ role: 'user' }] }), 400, 'VALIDATION_ERROR',
      'messages[0].content is required');
    assertError(await create({ label: 'x', messages: [{ role: 'user', content: 'a' }, { content: 'b' }] }), 400,
      'VALIDATION_ERROR', 'messages[1].role is required');
  });

  it('wrong types are rejected, not coerced', async () => {
    assertError(await create({ label: 123, messages: [] }), 400, 'VALIDATION_ERROR', /label/);
    assertError(await create({ label: true, messages: [] }), 400, 'VALIDATION_ERROR', /label/);
    assertError(await create({ label: { a: 1 }, messages: [] }), 400, 'VALIDATION_ERROR', /label/);
    assertError(await create({ label: 'x', messages: 'hello' }), 400, 'VALIDATION_ERROR', /messages/);
    assertError(await create({ label: 'x', messages: { role: 'user', content: 'a' } }), 400, 'VALIDATION_ERROR', /messages/);
    assertError(await create({ label: 'x', messages: [{ role: 'user', content: 5 }] }), 400, 'VALIDATION_ERROR',
      /messages\[0\]\.content/);
    assertError(await create({ label: 'x', folder: 7, messages: [] }), 400, 'VALIDATION_ERROR', /folder/);
    assertError(await create({ label: 'x', messages: [{ role: 'user', content: 'a', metadata: 'str' }] }), 400,
      'VALIDATION_ERROR', /metadata/);
    assertError(await create({ label: 'x', messages: [{ role: 'user', content: 'a', timestamp: 'yesterday' }] }), 400,
      'VALIDATION_ERROR', /timestamp/);
  });

  it('a bad role lists the allowed roles', async () => {
    assertError(await create({ label: 'x', messages: [{ role: 'robot', content: 'a' }] }), 400, 'VALIDATION_ERROR',
      /messages\[0\]\.role must be one of: user, assistant/);
  });

  it('unknown fields are named', async () => {
    assertError(await create({ ...conversationBody(), colour: 'red' }), 400, 'VALIDATION_ERROR', 'colour is not a known field');
    assertError(await create({ label: 'x', messages: [{ role: 'user', content: 'a', extra: 1 }] }), 400,
      'VALIDATION_ERROR', 'messages[0].extra is not a known field');
  });

  it('importance outside 1-10 or not an integer', async () => {
    for (const importance of [0, 11, -1, 5.5, 'x', '7']) {
      assertError(await create(conversationBody({ importance_score: importance })), 400, 'VALIDATION_ERROR', /importance_score/);
      assertError(await create(conversationBody({ importance })), 400, 'VALIDATION_ERROR', /importance/);
    }
  });

  it('empty or blank label, empty content', async () => {
    assertError(await create(conversationBody({ label: '' })), 400, 'VALIDATION_ERROR', /label/);
    assertError(await create(conversationBody({ label: '   ' })), 400, 'VALIDATION_ERROR', /label/);
    assertError(await create(conversationBody({ messages: [{ role: 'user', content: '' }] })), 400, 'VALIDATION_ERROR',
      /messages\[0\]\.content/);
  });

  it('bodies that are not objects', async () => {
    for (const body of ['[]', 'null', '"text"', '42', 'true']) {
      assertError(await create(body), 400);
    }
    assertError(await server.api('POST', '/api/v1/conversations', undefined), 400);
  });

  it('a body that is not JSON is refused', async () => {
    assertError(await server.api('POST', '/api/v1/conversations', '<label/>', { 'content-type': 'application/xml' }),
      415, 'UNSUPPORTED_MEDIA_TYPE');
    assertError(await server.api('POST', '/api/v1/conversations', JSON.stringify(conversationBody()),
      { 'content-type': 'text/plain' }), 400, 'VALIDATION_ERROR');
  });

  it('nothing was created by any of the rejected requests', async () => {
    assert.equal(await countConversations(server), 0);
    // Control: a valid create is seen by the same probe.
    await createConversation(server);
    assert.equal(await countConversations(server), 1);
  });
});

describe('400 on bad updates, appends and queries', () => {
  let server: RunningService;
  let id: string;
  before(async () => {
    server = await startService();
    id = await createConversation(server);
  });
  after(() => server.stop());

  it('PUT label requires label and folder', async () => {
    assertError(await server.api('PUT', `/api/v1/conversations/${id}/label`, { label: 'x' }), 400, 'VALIDATION_ERROR',
      'folder is required');
    assertError(await server.api('PUT', `/api/v1/conversations/${id}/label`, { folder: '/' }), 400, 'VALIDATION_ERROR',
      'label is required');
    assertError(await server.api('PUT', `/api/v1/conversations/${id}/label`, { label: 'x', folder: '/', other: 1 }), 400,
      'VALIDATION_ERROR', 'other is not a known field');
    assertError(await server.api('PUT', `/api/v1/conversations/${id}/label`, { label: '', folder: '/' }), 400);
  });

  it('PUT folder requires a folder string', async () => {
    assertError(await server.api('PUT', `/api/v1/conversations/${id}/folder`, {}), 400, 'VALIDATION_ERROR', 'folder is required');
    assertError(await server.api('PUT', `/api/v1/conversations/${id}/folder`, { folder: 3 }), 400, 'VALIDATION_ERROR');
    assertError(await server.api('PUT', `/api/v1/conversations/${id}/folder`, undefined,
      { 'content-type': 'application/json' }), 400);
  });

  it('PUT importance requires an integer 1-10', async () => {
    for (const importance_score of [0, 11, 'x', 2.5, null]) {
      assertError(await server.api('PUT', `/api/v1/conversations/${id}/importance`, { importance_score }), 400,
        'VALIDATION_ERROR', /importance_score/);
    }
    assertError(await server.api('PUT', `/api/v1/conversations/${id}/importance`, {}), 400, 'VALIDATION_ERROR',
      'importance_score is required');
  });

  it('POST messages requires a non-empty list of valid messages', async () => {
    const append = (body: unknown) => server.api('POST', `/api/v1/conversations/${id}/messages`, body);
    assertError(await append({}), 400, 'VALIDATION_ERROR', 'messages is required');
    assertError(await append({ messages: [] }), 400, 'VALIDATION_ERROR', /messages/);
    assertError(await append({ messages: [{ role: 'bot', content: 'x' }] }), 400, 'VALIDATION_ERROR', /role/);
    assertError(await append('{"messages": ['), 400, 'INVALID_JSON');
  });

  it('list query parameters are validated', async () => {
    const list = (query: string) => server.api('GET', `/api/v1/conversations${query}`);
    assertError(await list('?page_size=1001'), 400, 'VALIDATION_ERROR', /page_size/);
    assertError(await list('?page_size=0'), 400, 'VALIDATION_ERROR', /page_size/);
    assertError(await list('?page=0'), 400, 'VALIDATION_ERROR', /page/);
    assertError(await list('?page=-1'), 400, 'VALIDATION_ERROR', /page/);
    assertError(await list('?page=abc'), 400, 'VALIDATION_ERROR', /page/);
    assertError(await list('?pinned=maybe'), 400, 'VALIDATION_ERROR', /pinned/);
    assertError(await list('?archived=yes'), 400, 'VALIDATION_ERROR', /archived/);
    assertError(await list('?sort=size'), 400, 'VALIDATION_ERROR', /sort/);
    assertError(await list('?order=up'), 400, 'VALIDATION_ERROR', /order/);
    assertError(await list('?colour=red'), 400, 'VALIDATION_ERROR', /colour/);
    assertError(await list('?folder=work'), 400, 'INVALID_FOLDER');
    assert.equal((await list('?page_size=1000')).status, 200, 'the documented maximum itself is accepted');
  });

  it('a page too far out to compute is a 400, not a database error', async () => {
    for (const path of ['/api/v1/conversations?page=99999999999999999999', `/api/v1/conversations/${id}/messages?page=1e20`]) {
      assertError(await server.api('GET', path), 400, 'VALIDATION_ERROR', /page/);
    }
  });

  it('message paging is validated too', async () => {
    assertError(await server.api('GET', `/api/v1/conversations/${id}/messages?page_size=1001`), 400, 'VALIDATION_ERROR');
    assertError(await server.api('GET', `/api/v1/conversations/${id}/messages?page=0`), 400, 'VALIDATION_ERROR');
  });

  it('GET include accepts only "messages"', async () => {
    assertError(await server.api('GET', `/api/v1/conversations/${id}?include=everything`), 400, 'VALIDATION_ERROR', /include/);
  });
});

describe('never a 500 for bad input', () => {
  let server: RunningService;
  let id: string;
  before(async () => {
    server = await startService();
    id = await createConversation(server);
  });
  after(() => server.stop());

  it('odd paths, repeated parameters and odd bodies all get a JSON 4xx', async () => {
    const cases: Array<[string, string, unknown?]> = [
      ['GET', '/api/v1/conversations/%E0%A4%A'],
      ['GET', '/api/v1/conversations/%00'],
      ['GET', `/api/v1/conversations/${'a'.repeat(5000)}`],
      ['GET', '/api/v1/conversations?page=1&page=2'],
      ['GET', '/api/v1/conversations?pinned=true&pinned=false'],
      ['GET', `/api/v1/conversations?label=${'x'.repeat(5000)}&folder=/${'y'.repeat(5000)}`],
      ['GET', '/api/v1/conversations?folder=/a/%00'],
      ['GET', '/api/v1/conversations/count?label=a&label=b'],
      ['POST', '/api/v1/conversations', '{"label":"x","messages":[],"__proto__":{"polluted":1}}'],
      ['POST', '/api/v1/conversations', `{"label":"x","messages":[],"a":${'['.repeat(10_000)}${']'.repeat(10_000)}}`],
      ['POST', '/api/v1/conversations', '\u0000'],
      ['POST', `/api/v1/conversations/${id}/messages`, { messages: [{ role: 'user', content: 'x', timestamp: '2025-13-45T99:99:99Z' }] }],
      ['POST', `/api/v1/conversations/${id}/messages`, { messages: [{ role: 'user', content: 'x', metadata: { deep: { a: [1, { b: null }] } } }], x: 1 }],
      ['PUT', `/api/v1/conversations/${id}/importance`, '{"importance_score": 1e400}'],
      ['PUT', `/api/v1/conversations/${id}/label`, { label: 'x'.repeat(10_000), folder: '/' }],
      ['PUT', `/api/v1/conversations/${id}/folder`, { folder: `/${'a/'.repeat(500)}` }],
    ];
    for (const [method, path, body] of cases) {
      const response = await server.api(method, path, body);
      assert.ok(response.status >= 400 && response.status < 500, `${method} ${path.slice(0, 80)}: ${response.status} ${response.text}`);
      assert.equal(typeof response.body?.error, 'string', `${method} ${path.slice(0, 80)}`);
      assert.equal(typeof response.body?.code, 'string');
    }
    const stats = (await server.api('GET', '/stats')).body;
    assert.equal(stats.errors_total, 0, 'no request ended in a server error');
    assert.equal(stats.total_conversations, 1);
  });

  it('a JSON content type with a charset is JSON', async () => {
    const response = await server.api('POST', '/api/v1/conversations', { label: 'charset', messages: [] },
      { 'content-type': 'application/json; charset=utf-8' });
    assert.equal(response.status, 201, response.text);
  });
});

describe('404 on every {id} route', () => {
  let server: RunningService;
  before(async () => { server = await startService(); });
  after(() => server.stop());

  const routes: Array<[string, string, unknown?]> = [
    ['GET', ''],
    ['GET', '?include=messages'],
    ['PUT', '/label', { label: 'x', folder: '/' }],
    ['PUT', '/folder', { folder: '/x' }],
    ['PUT', '/importance', { importance_score: 3 }],
    ['PUT', '/pin'],
    ['PUT', '/archive'],
    ['PUT', '/unarchive'],
    ['DELETE', ''],
    ['POST', '/messages', { messages: [{ role: 'user', content: 'x' }] }],
    ['GET', '/messages'],
  ];

  for (const id of [UNKNOWN_ID, 'not-a-uuid', '12345', UNKNOWN_ID.toUpperCase().replace(/-/g, '')]) {
    it(`answers CONVERSATION_NOT_FOUND for id ${id}`, async () => {
      for (const [method, suffix, body] of routes) {
        const response = await server.api(method, `/api/v1/conversations/${id}${suffix}`, body);
        assert.equal(response.status, 404, `${method} ${suffix}: ${response.text}`);
        assert.deepEqual(response.body, { error: `Conversation not found: ${id}`, code: 'CONVERSATION_NOT_FOUND' },
          `${method} ${suffix}`);
      }
    });
  }

  it('an unknown route is a JSON 404 too', async () => {
    assertError(await server.api('GET', '/api/v1/nothing-here'), 404, 'NOT_FOUND');
  });

  it('nothing was created by appending to unknown ids', async () => {
    assert.equal(await countConversations(server), 0);
    // Control: a valid create is seen by the same probe.
    await createConversation(server);
    assert.equal(await countConversations(server), 1);
  });
});

describe('413 on bodies over the limit', () => {
  let server: RunningService;
  before(async () => { server = await startService({ overrides: { server: { body_limit_bytes: 2048 } } }); });
  after(() => server.stop());

  it('refuses a body larger than server.body_limit_bytes and accepts one under it', async () => {
    const response = await server.api('POST', '/api/v1/conversations',
      conversationBody({ messages: [{ role: 'user', content: 'x'.repeat(4096) }] }));
    assertError(response, 413, 'PAYLOAD_TOO_LARGE');
    assert.equal(await countConversations(server), 0);

    // Control: a body under the limit is accepted and seen by the same probe.
    const accepted = await server.api('POST', '/api/v1/conversations',
      conversationBody({ messages: [{ role: 'user', content: 'x'.repeat(1500) }] }));
    assert.equal(accepted.status, 201, accepted.text);
    assert.equal(await countConversations(server), 1);
  });
});

describe('a rejected request changes nothing', () => {
  let server: RunningService;
  const clock = new ManualClock();
  let id: string;
  before(async () => {
    server = await startService({ clock, overrides: { limits: { max_messages_per_conversation: 4 } } });
    id = await createConversation(server, { label: 'Original', folder: '/orig', importance: 4 });
  });
  after(() => server.stop());

  /** Everything a client can see, except last_accessed which every read moves. */
  const snapshot = async () => {
    const { last_accessed: _accessed, ...conversation } =
      (await server.api('GET', `/api/v1/conversations/${id}?include=messages`)).body;
    const list = (await server.api('GET', '/api/v1/conversations')).body;
    const stats = (await server.api('GET', '/stats')).body;
    return { conversation, list, total_conversations: stats.total_conversations, total_messages: stats.total_messages };
  };

  const rejected: Array<[string, string, string, unknown]> = [
    ['create with one message too long', 'POST', '/api/v1/conversations',
      conversationBody({ messages: [{ role: 'user', content: 'ok' }, { role: 'user', content: 'x'.repeat(100_001) }] })],
    ['create with a bad folder', 'POST', '/api/v1/conversations', conversationBody({ folder: '/a/../b' })],
    ['create with too many messages', 'POST', '/api/v1/conversations',
      conversationBody({ messages: Array.from({ length: 5 }, () => ({ role: 'user', content: 'm' })) })],
    ['create with oversized metadata', 'POST', '/api/v1/conversations',
      conversationBody({ messages: [{ role: 'user', content: 'm', metadata: { blob: 'x'.repeat(20_000) } }] })],
    ['append with a bad second message', 'POST', '/messages',
      { messages: [{ role: 'user', content: 'fine' }, { role: 'user', content: 'x'.repeat(100_001) }] }],
    ['append past the message limit', 'POST', '/messages',
      { messages: [{ role: 'user', content: 'a' }, { role: 'user', content: 'b' }, { role: 'user', content: 'c' }] }],
    ['append with a bad role', 'POST', '/messages', { messages: [{ role: 'user', content: 'a' }, { role: 'x', content: 'b' }] }],
    ['relabel with a label too long', 'PUT', '/label', { label: 'L'.repeat(201), folder: '/new' }],
    ['relabel with a bad folder', 'PUT', '/label', { label: 'New label', folder: 'relative' }],
    ['move to a bad folder', 'PUT', '/folder', { folder: '/a/./b' }],
    ['importance out of range', 'PUT', '/importance', { importance_score: 11 }],
    ['create with importance (the alias) out of range', 'POST', '/api/v1/conversations', conversationBody({ importance: 11 })],
  ];

  it('after each kind of rejected create, append and update', async () => {
    const before = await snapshot();
    for (const [name, method, path, body] of rejected) {
      clock.advance(60_000);
      const url = path.startsWith('/api') ? path : `/api/v1/conversations/${id}${path}`;
      const response = await server.api(method, url, body);
      assert.equal(response.status, 400, `${name}: ${response.status} ${response.text}`);
      assert.deepEqual(await snapshot(), before, `${name} changed state`);
    }
  });
});
