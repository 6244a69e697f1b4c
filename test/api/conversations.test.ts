import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type RunningService, startService } from '../helpers/service-harness.js';
import { createConversation, NIL_UUID } from '../helpers/fixtures.js';
import { ManualClock } from '../helpers/fakes.js';

const UUID_V4 = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
/** Message ids are version 7: time first, so new ones go at the end of the message-id index. */
const UUID_V7 = /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

describe('create and get', () => {
  let server: RunningService;
  const clock = new ManualClock('2025-03-01T10:00:00.000Z');
  before(async () => { server = await startService({ clock }); });
  after(() => server.stop());

  it('creates an active conversation with computed counts and returns 201', async () => {
    const response = await server.api('POST', '/api/v1/conversations', {
      label: 'Design review',
      folder: '/work/backend',
      messages: [
        { role: 'user', content: 'How should we shard the  database?' },
        { role: 'assistant', content: 'By tenant id.\nThen by time.' },
      ],
    });
    assert.equal(response.status, 201);
    const body = response.body;
    assert.match(body.id, UUID_V4);
    assert.equal(body.conversation_id, body.id);
    assert.equal(body.label, 'Design review');
    assert.equal(body.folder, '/work/backend');
    assert.equal(body.status, 'active');
    assert.equal(body.importance_score, 5);
    assert.equal(body.message_count, 2);
    assert.equal(body.word_count, 6 + 6);
    assert.equal(body.session_count, 1);
    assert.equal(body.created_at, '2025-03-01T10:00:00.000Z');
    assert.equal(body.updated_at, '2025-03-01T10:00:00.000Z');
  });

  it('defaults the folder to "/" and accepts an empty message list', async () => {
    const response = await server.api('POST', '/api/v1/conversations', { label: 'Empty', messages: [] });
    assert.equal(response.status, 201);
    assert.equal(response.body.folder, '/');
    assert.equal(response.body.message_count, 0);
    assert.equal(response.body.word_count, 0);
    assert.equal(response.body.session_count, 1);
  });

  it('takes importance_score and its alias importance', async () => {
    const a = await server.api('POST', '/api/v1/conversations', { label: 'A', messages: [], importance_score: 8 });
    const b = await server.api('POST', '/api/v1/conversations', { label: 'B', messages: [], importance: 3 });
    assert.equal(a.body.importance_score, 8);
    assert.equal(b.body.importance_score, 3);
    const stored = await server.api('GET', `/api/v1/conversations/${b.body.id}`);
    assert.equal(stored.body.importance_score, 3);
  });

  it('gets a conversation by id, without messages unless asked', async () => {
    const id = await createConversation(server, { label: 'Fetch me', folder: '/home' });
    const response = await server.api('GET', `/api/v1/conversations/${id}`);
    assert.equal(response.status, 200);
    const body = response.body;
    assert.equal(body.id, id);
    assert.equal(body.conversation_id, id);
    assert.equal(body.label, 'Fetch me');
    assert.equal(body.folder, '/home');
    assert.equal(body.status, 'active');
    assert.equal(body.pinned, false);
    assert.equal(body.importance_score, 5);
    assert.equal(body.message_count, 2);
    assert.equal(body.word_count, 4);
    assert.equal(body.session_count, 1);
    assert.equal(body.created_at, '2025-03-01T10:00:00.000Z');
    assert.equal(body.messages, undefined);
  });

  it('returns the messages in order with ?include=messages', async () => {
    const id = await createConversation(server, {
      messages: [
        { role: 'user', content: 'first', metadata: { source: 'cli' } },
        { role: 'assistant', content: 'second', timestamp: '2025-02-01T08:00:00+01:00' },
        { role: 'system', content: 'third' },
      ],
    });
    const response = await server.api('GET', `/api/v1/conversations/${id}?include=messages`);
    assert.equal(response.status, 200);
    const messages = response.body.messages;
    assert.deepEqual(messages.map((m: any) => [m.position, m.role, m.content]),
      [[0, 'user', 'first'], [1, 'assistant', 'second'], [2, 'system', 'third']]);
    for (const message of messages) {
      assert.match(message.id, UUID_V7);
      assert.equal(message.conversation_id, id);
      assert.equal(message.embedding_id, null);
    }
    assert.deepEqual(messages[0].metadata, { source: 'cli' });
    assert.equal(messages[1].metadata, null);
    assert.equal(messages[0].timestamp, '2025-03-01T10:00:00.000Z');
    assert.equal(messages[1].timestamp, '2025-02-01T07:00:00.000Z', 'timestamps are normalized to UTC');
  });
});

describe('list', () => {
  let server: RunningService;
  const clock = new ManualClock();
  const ids: Record<string, string> = {};
  before(async () => {
    server = await startService({ clock });
    const specs = [
      { key: 'alpha', label: 'alpha', folder: '/work', importance: 2 },
      { key: 'beta', label: 'beta', folder: '/work/backend', importance: 7 },
      { key: 'gamma', label: 'gamma', folder: '/workshop', importance: 4 },
      { key: 'delta', label: 'delta', folder: '/', importance: 9 },
      { key: 'beta2', label: 'beta', folder: '/home', importance: 1 },
    ];
    for (const spec of specs) {
      clock.advance(1000);
      ids[spec.key] = await createConversation(server, { label: spec.label, folder: spec.folder, importance: spec.importance });
    }
    clock.advance(1000);
    assert.equal((await server.api('PUT', `/api/v1/conversations/${ids.gamma}/pin`)).status, 200);
    clock.advance(1000);
    assert.equal((await server.api('PUT', `/api/v1/conversations/${ids.delta}/archive`)).status, 200);
  });
  after(() => server.stop());

  const list = async (query = '') => {
    const response = await server.api('GET', `/api/v1/conversations${query}`);
    assert.equal(response.status, 200, response.text);
    return response.body;
  };
  const labelsOf = (body: any) => body.results.map((r: any) => r.label);
  const idsOf = (body: any) => body.results.map((r: any) => r.conversation_id);

  it('lists everything by default, newest update first, page 1 of size 50', async () => {
    const body = await list();
    assert.equal(body.total, 5);
    assert.equal(body.page, 1);
    assert.equal(body.page_size, 50);
    assert.deepEqual(idsOf(body), [ids.delta, ids.gamma, ids.beta2, ids.beta, ids.alpha]);
  });

  it('returns list items in the search-hit shape', async () => {
    const body = await list('?label=alpha');
    assert.equal(body.results.length, 1);
    const [item] = body.results;
    assert.equal(item.conversation_id, ids.alpha);
    assert.equal(item.message_id, NIL_UUID);
    assert.equal(item.score, 1.0);
    assert.equal(item.content, 'alpha');
    assert.equal(item.label, 'alpha');
    assert.equal(item.folder, '/work');
    assert.equal(typeof item.timestamp, 'string');
    assert.equal(item.metadata.folder, '/work');
    assert.equal(item.metadata.status, 'active');
    assert.equal(item.metadata.importance_score, 2);
    assert.equal(item.metadata.message_count, 2);
  });

  it('pages with page and page_size while total counts all matches', async () => {
    const first = await list('?page=1&page_size=2&sort=created_at&order=asc');
    const second = await list('?page=2&page_size=2&sort=created_at&order=asc');
    const third = await list('?page=3&page_size=2&sort=created_at&order=asc');
    const beyond = await list('?page=9&page_size=2&sort=created_at&order=asc');
    assert.deepEqual(idsOf(first), [ids.alpha, ids.beta]);
    assert.deepEqual(idsOf(second), [ids.gamma, ids.delta]);
    assert.deepEqual(idsOf(third), [ids.beta2]);
    assert.deepEqual(idsOf(beyond), []);
    for (const body of [first, second, third, beyond]) {
      assert.equal(body.total, 5);
      assert.equal(body.page_size, 2);
    }
    assert.equal(second.page, 2);
  });

  it('sorts by importance and label in either order', async () => {
    assert.deepEqual(idsOf(await list('?sort=importance_score&order=desc')),
      [ids.gamma, ids.delta, ids.beta, ids.alpha, ids.beta2]);
    assert.deepEqual(idsOf(await list('?sort=importance_score&order=asc')),
      [ids.beta2, ids.alpha, ids.beta, ids.delta, ids.gamma]);
    assert.deepEqual(labelsOf(await list('?sort=label&order=asc')), ['alpha', 'beta', 'beta', 'delta', 'gamma']);
  });

  it('filters by label', async () => {
    const body = await list('?label=beta');
    assert.equal(body.total, 2);
    assert.deepEqual(new Set(idsOf(body)), new Set([ids.beta, ids.beta2]));
  });

  it('filters by folder subtree', async () => {
    const body = await list('?folder=/work');
    assert.deepEqual(new Set(idsOf(body)), new Set([ids.alpha, ids.beta]));
    assert.equal(body.total, 2);
  });

  it('filters by pinned', async () => {
    assert.deepEqual(idsOf(await list('?pinned=true')), [ids.gamma]);
    const unpinned = await list('?pinned=false');
    assert.equal(unpinned.total, 4);
    assert.ok(!idsOf(unpinned).includes(ids.gamma));
  });

  it('filters by archived', async () => {
    assert.deepEqual(idsOf(await list('?archived=true')), [ids.delta]);
    const active = await list('?archived=false');
    assert.equal(active.total, 4);
    assert.ok(!idsOf(active).includes(ids.delta));
  });

  it('combines filters', async () => {
    assert.deepEqual(idsOf(await list('?folder=/work&label=beta')), [ids.beta]);
    assert.deepEqual(idsOf(await list('?archived=false&pinned=true')), [ids.gamma]);
    assert.equal((await list('?archived=true&pinned=true')).total, 0);
  });
});

describe('updates', () => {
  let server: RunningService;
  const clock = new ManualClock('2025-05-05T05:00:00.000Z');
  before(async () => { server = await startService({ clock }); });
  after(() => server.stop());

  const get = async (id: string) => (await server.api('GET', `/api/v1/conversations/${id}`)).body;

  it('PUT label changes label and folder, answers 200 with an empty body and bumps updated_at', async () => {
    const id = await createConversation(server);
    const later = clock.advance(60_000);
    const response = await server.api('PUT', `/api/v1/conversations/${id}/label`, { label: 'Renamed', folder: '/a/b' });
    assert.equal(response.status, 200);
    assert.equal(response.text, '');
    const stored = await get(id);
    assert.equal(stored.label, 'Renamed');
    assert.equal(stored.folder, '/a/b');
    assert.equal(stored.updated_at, later);
    assert.notEqual(stored.created_at, later);
  });

  it('PUT label trims the label', async () => {
    const id = await createConversation(server);
    await server.api('PUT', `/api/v1/conversations/${id}/label`, { label: '  spaced  ', folder: '/' });
    assert.equal((await get(id)).label, 'spaced');
  });

  it('PUT folder moves the conversation and nothing else', async () => {
    const id = await createConversation(server, { label: 'Stay' });
    const response = await server.api('PUT', `/api/v1/conversations/${id}/folder`, { folder: '/archive/2024' });
    assert.equal(response.status, 200);
    assert.equal(response.text, '');
    const stored = await get(id);
    assert.equal(stored.folder, '/archive/2024');
    assert.equal(stored.label, 'Stay');
  });

  it('PUT importance sets the score', async () => {
    const id = await createConversation(server);
    const response = await server.api('PUT', `/api/v1/conversations/${id}/importance`, { importance_score: 9 });
    assert.equal(response.status, 200);
    assert.equal(response.text, '');
    const stored = await get(id);
    assert.equal(stored.importance_score, 9);
    assert.equal(stored.pinned, false);
  });

  it('accepts a bodiless PUT sent with Content-Type application/json', async () => {
    const id = await createConversation(server);
    const withoutBody = await server.raw('PUT', `/api/v1/conversations/${id}/pin`, {
      headers: { authorization: `Bearer ${server.apiKey}`, 'content-type': 'application/json' },
    });
    assert.equal(withoutBody.status, 200, withoutBody.text);
    const emptyBody = await server.raw('PUT', `/api/v1/conversations/${id}/archive`, {
      body: '',
      headers: { authorization: `Bearer ${server.apiKey}`, 'content-type': 'application/json' },
    });
    assert.equal(emptyBody.status, 200, emptyBody.text);
    const stored = await get(id);
    assert.equal(stored.importance_score, 10);
    assert.equal(stored.status, 'archived');
  });

  it('DELETE removes the conversation and its messages', async () => {
    const id = await createConversation(server);
    const keep = await createConversation(server);
    const response = await server.api('DELETE', `/api/v1/conversations/${id}`);
    assert.equal(response.status, 200);
    assert.equal(response.text, '');
    assert.equal((await server.api('GET', `/api/v1/conversations/${id}`)).status, 404);
    assert.equal((await server.api('GET', `/api/v1/conversations/${id}/messages`)).status, 404);
    assert.equal((await server.api('DELETE', `/api/v1/conversations/${id}`)).status, 404);
    assert.equal((await server.controller.store.listMessages(id, { offset: 0, limit: 10 })).items.length, 0);
    assert.equal((await get(keep)).message_count, 2, 'other conversations are untouched');
  });
});

describe('state transitions', () => {
  let server: RunningService;
  before(async () => { server = await startService(); });
  after(() => server.stop());

  const state = async (id: string) => {
    const body = (await server.api('GET', `/api/v1/conversations/${id}`)).body;
    return { status: body.status, importance: body.importance_score, pinned: body.pinned };
  };
  const put = async (id: string, action: string, body?: unknown) => {
    const response = await server.api('PUT', `/api/v1/conversations/${id}/${action}`, body);
    assert.equal(response.status, 200, `${action}: ${response.text}`);
    assert.equal(response.text, '');
  };

  it('create -> active; archive -> archived; unarchive -> active', async () => {
    const id = await createConversation(server);
    assert.deepEqual(await state(id), { status: 'active', importance: 5, pinned: false });
    await put(id, 'archive');
    assert.deepEqual(await state(id), { status: 'archived', importance: 5, pinned: false });
    await put(id, 'archive');
    assert.equal((await state(id)).status, 'archived', 'archiving again keeps it archived');
    await put(id, 'unarchive');
    assert.deepEqual(await state(id), { status: 'active', importance: 5, pinned: false });
  });

  it('pin sets importance 10 and leaves the status as it was (active or archived)', async () => {
    const active = await createConversation(server, { importance: 3 });
    await put(active, 'pin');
    assert.deepEqual(await state(active), { status: 'active', importance: 10, pinned: true });

    const archived = await createConversation(server);
    await put(archived, 'archive');
    await put(archived, 'pin');
    assert.deepEqual(await state(archived), { status: 'archived', importance: 10, pinned: true });
  });

  it('lowering importance unpins', async () => {
    const id = await createConversation(server);
    await put(id, 'pin');
    await put(id, 'importance', { importance_score: 6 });
    assert.deepEqual(await state(id), { status: 'active', importance: 6, pinned: false });
  });

  it('archive and unarchive keep the importance of a pinned conversation', async () => {
    const id = await createConversation(server);
    await put(id, 'pin');
    await put(id, 'archive');
    await put(id, 'unarchive');
    assert.deepEqual(await state(id), { status: 'active', importance: 10, pinned: true });
  });

  it('an archived conversation can be deleted', async () => {
    const id = await createConversation(server);
    await put(id, 'archive');
    assert.equal((await server.api('DELETE', `/api/v1/conversations/${id}`)).status, 200);
    assert.equal((await server.api('GET', `/api/v1/conversations/${id}`)).status, 404);
  });
});

describe('count and folder tree', () => {
  let server: RunningService;
  before(async () => {
    server = await startService();
    for (const [label, folder] of [
      ['x', '/'], ['x', '/work'], ['y', '/work/backend'], ['y', '/work/backend'], ['x', '/workshop'], ['z', '/home/notes'],
    ] as const) {
      await createConversation(server, { label, folder });
    }
  });
  after(() => server.stop());

  const count = async (query = '') => {
    const response = await server.api('GET', `/api/v1/conversations/count${query}`);
    assert.equal(response.status, 200, response.text);
    return response.body.count;
  };

  it('counts globally, by label and by folder subtree', async () => {
    assert.equal(await count(), 6);
    assert.equal(await count('?label=x'), 3);
    assert.equal(await count('?label=nobody'), 0);
    assert.equal(await count('?folder=/work'), 3);
    assert.equal(await count('?folder=/work/backend'), 2);
    assert.equal(await count('?folder=/'), 6);
    assert.equal(await count('?folder=/work/'), 3, 'the folder is normalized');
  });

  it('rejects label and folder together with 400', async () => {
    const response = await server.api('GET', '/api/v1/conversations/count?label=x&folder=/work');
    assert.equal(response.status, 400);
    assert.equal(response.body.code, 'INVALID_FILTER');
  });

  it('GET /folders returns every folder with direct and subtree counts', async () => {
    const response = await server.api('GET', '/api/v1/folders');
    assert.equal(response.status, 200);
    assert.deepEqual(response.body.folders, [
      { folder: '/', count: 1, total: 6 },
      { folder: '/home', count: 0, total: 1 },
      { folder: '/home/notes', count: 1, total: 1 },
      { folder: '/work', count: 1, total: 3 },
      { folder: '/work/backend', count: 2, total: 2 },
      { folder: '/workshop', count: 1, total: 1 },
    ]);
  });
});

describe('messages', () => {
  let server: RunningService;
  const clock = new ManualClock('2025-06-01T12:00:00.000Z');
  before(async () => { server = await startService({ clock }); });
  after(() => server.stop());

  it('appending updates counts and updated_at and returns the new messages', async () => {
    const id = await createConversation(server);
    const later = clock.advance(5 * 60_000);
    const response = await server.api('POST', `/api/v1/conversations/${id}/messages`, {
      messages: [{ role: 'user', content: 'three more words' }, { role: 'assistant', content: 'ok' }],
    });
    assert.equal(response.status, 201, response.text);
    assert.equal(response.body.conversation_id, id);
    assert.equal(response.body.message_count, 4);
    assert.equal(response.body.word_count, 4 + 4);
    assert.equal(response.body.session_count, 1);
    assert.deepEqual(response.body.messages.map((m: any) => [m.position, m.content]), [[2, 'three more words'], [3, 'ok']]);
    assert.equal(response.body.messages[0].timestamp, later);

    const stored = (await server.api('GET', `/api/v1/conversations/${id}`)).body;
    assert.equal(stored.message_count, 4);
    assert.equal(stored.word_count, 8);
    assert.equal(stored.updated_at, later);
    assert.notEqual(stored.created_at, later);
  });

  it('pages through messages in order', async () => {
    const id = await createConversation(server, {
      messages: Array.from({ length: 5 }, (_, i) => ({ role: i % 2 ? 'assistant' : 'user', content: `m${i}` })),
    });
    const page = async (query: string) => {
      const response = await server.api('GET', `/api/v1/conversations/${id}/messages${query}`);
      assert.equal(response.status, 200, response.text);
      return response.body;
    };
    const all = await page('');
    assert.equal(all.total, 5);
    assert.equal(all.page, 1);
    assert.equal(all.page_size, 100);
    assert.deepEqual(all.results.map((m: any) => m.content), ['m0', 'm1', 'm2', 'm3', 'm4']);
    const second = await page('?page=2&page_size=2');
    assert.deepEqual(second.results.map((m: any) => m.content), ['m2', 'm3']);
    assert.equal(second.total, 5);
    assert.deepEqual((await page('?page=3&page_size=2')).results.map((m: any) => m.content), ['m4']);
    assert.deepEqual((await page('?page=4&page_size=2')).results, []);
  });

  it('a message after more than 30 idle minutes starts a new session', async () => {
    const id = await createConversation(server, {
      messages: [
        { role: 'user', content: 'a', timestamp: '2025-01-01T09:00:00Z' },
        { role: 'assistant', content: 'b', timestamp: '2025-01-01T09:10:00Z' },
      ],
    });
    const append = async (timestamp: string) => {
      const response = await server.api('POST', `/api/v1/conversations/${id}/messages`, {
        messages: [{ role: 'user', content: 'next', timestamp }],
      });
      assert.equal(response.status, 201, response.text);
      return response.body.session_count;
    };
    assert.equal(await append('2025-01-01T09:40:00Z'), 1, 'exactly 30 minutes is the same session');
    assert.equal(await append('2025-01-01T10:10:01Z'), 2, 'over 30 minutes starts session 2');
    assert.equal(await append('2025-01-01T10:20:00Z'), 2);
    assert.equal(await append('2025-01-02T08:00:00Z'), 3);
    assert.equal((await server.api('GET', `/api/v1/conversations/${id}`)).body.session_count, 3);
  });

  it('counts sessions inside a single create as well', async () => {
    const response = await server.api('POST', '/api/v1/conversations', {
      label: 'multi-session',
      messages: [
        { role: 'user', content: 'a', timestamp: '2025-01-01T09:00:00Z' },
        { role: 'user', content: 'b', timestamp: '2025-01-01T11:00:00Z' },
        { role: 'user', content: 'c', timestamp: '2025-01-01T13:00:00Z' },
      ],
    });
    assert.equal(response.body.session_count, 3);
  });
});

describe('details a careful client relies on', () => {
  let server: RunningService;
  const clock = new ManualClock('2025-03-01T10:00:00.000Z');
  before(async () => { server = await startService({ clock }); });
  after(() => server.stop());

  it('reads message timestamps without a zone as UTC, as the spec writes them', async () => {
    const created = await server.api('POST', '/api/v1/conversations', {
      label: 'zones', messages: [
        { role: 'user', content: 'no zone', timestamp: '2025-02-01T08:30:00' },
        { role: 'user', content: 'offset', timestamp: '2025-02-01T10:30:00+02:00' },
      ],
    });
    assert.equal(created.status, 201);
    const messages = await server.api('GET', `/api/v1/conversations/${created.body.id}/messages`);
    assert.deepEqual(messages.body.results.map((m: any) => m.timestamp),
      ['2025-02-01T08:30:00.000Z', '2025-02-01T08:30:00.000Z']);
    const bad = await server.api('POST', '/api/v1/conversations', {
      label: 'zones', messages: [{ role: 'user', content: 'x', timestamp: '2025-02-30T08:30:00' }],
    });
    assert.equal(bad.status, 400);
    assert.match(bad.body.error, /messages\[0\]\.timestamp/);
  });

  it('rejects control characters in labels', async () => {
    const response = await server.api('POST', '/api/v1/conversations', { label: 'bad\u0000label', messages: [] });
    assert.equal(response.status, 400);
    assert.match(response.body.error, /control characters/);
  });

  it('a read returns the access it records', async () => {
    const id = await createConversation(server);
    clock.advance(60_000);
    const read = await server.api('GET', `/api/v1/conversations/${id}`);
    assert.equal(read.body.last_accessed, clock.now().toISOString());
  });

  it('count echoes the folder as applied', async () => {
    const response = await server.api('GET', '/api/v1/conversations/count?folder=/work//backend/');
    assert.equal(response.status, 200);
    assert.equal(response.body.folder, '/work/backend');
  });
});

describe('access tracking', () => {
  let server: RunningService;
  const clock = new ManualClock('2025-03-01T10:00:00.000Z');
  before(async () => { server = await startService({ clock }); });
  after(() => server.stop());

  it('paging through messages records an access, listing conversations does not', async () => {
    const id = await createConversation(server);
    const created = (await server.api('GET', `/api/v1/conversations/${id}`)).body.last_accessed;
    const stored = async () => {
      await server.controller.conversations.accessesRecorded();
      return (await server.controller.store.get(id))!.lastAccessedAt;
    };
    assert.equal(await stored(), created, 'the read stores the access it answered with');
    clock.advance(3_600_000);
    await server.api('GET', '/api/v1/conversations');
    assert.equal(await stored(), created);
    await server.api('GET', `/api/v1/conversations/${id}/messages`);
    assert.equal(await stored(), clock.now().toISOString());
  });

  it('an access recorded just before a stop is stored', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'memsvc-access-'));
    let running: RunningService | null = await startService({ clock, dataDir });
    try {
      const id = await createConversation(running);
      clock.advance(60_000);
      const read = await running.api('GET', `/api/v1/conversations/${id}`);
      assert.equal(read.body.last_accessed, clock.now().toISOString());
      await running.stop();
      running = await startService({ clock, dataDir });
      assert.equal((await running.controller.store.get(id))!.lastAccessedAt, clock.now().toISOString());
    } finally {
      await running?.stop();
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
