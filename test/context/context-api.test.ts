import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { SPEC_WEIGHTS } from '../../src/features/context/context-ranking.js';
import { FakeBridge } from '../helpers/fake-bridge.js';
import { type RunningService, startService } from '../helpers/service-harness.js';
import { ManualClock } from '../helpers/fakes.js';

const DAY = 24 * 60 * 60 * 1000;
const NOW = '2026-06-15T12:00:00.000Z';
const daysAgo = (days: number, minutes = 0) => new Date(Date.parse(NOW) - days * DAY + minutes * 60_000).toISOString();

/** POST /api/v1/context/assemble through a real controller, the fake bridge (bag-of-words vectors) and a fixed clock. */
describe('context assembly API', () => {
  let bridge: FakeBridge;
  let server: RunningService;
  const ids: Record<string, string> = {};

  const api = (method: string, path: string, body?: unknown) => server.api(method, path, body);
  const assemble = (body: Record<string, unknown>) => api('POST', '/api/v1/context/assemble', body);

  before(async () => {
    bridge = await new FakeBridge().start();
    server = await startService({ bridge: { url: bridge.url }, clock: new ManualClock(NOW) });

    const conversations = [
      { key: 'db', label: 'backend', folder: '/work/backend', messages: [
        { role: 'user', content: 'The postgres migration deadlocked on the orders table.', timestamp: daysAgo(30) },
        { role: 'assistant', content: 'Run the migration in smaller batches.', timestamp: daysAgo(30, 1) },
      ] },
      { key: 'profile', label: 'profile', folder: '/personal', importance_score: 10, messages: [
        { role: 'user', content: 'My name is Ada and I prefer concise answers.', timestamp: daysAgo(200) },
      ] },
      { key: 'secret', label: 'secrets', folder: '/secret/keys', messages: [
        { role: 'user', content: 'The postgres migration password is hunter2.', timestamp: daysAgo(2) },
      ] },
      { key: 'deep', label: 'secrets', folder: '/secret/keys/deeper', messages: [
        { role: 'user', content: 'Another postgres migration secret lives here.', timestamp: daysAgo(2) },
      ] },
      { key: 'secretive', label: 'gossip', folder: '/secretive', messages: [
        { role: 'user', content: 'Gossip: the postgres migration team is hiring.', timestamp: daysAgo(40) },
      ] },
      { key: 'archived', label: 'old', folder: '/work/old', messages: [
        { role: 'user', content: 'Archived notes on the postgres migration deadlock.', timestamp: daysAgo(20) },
      ] },
      { key: 'lunch', label: 'chat', folder: '/misc', messages: [
        { role: 'user', content: 'Lunch was great today, the soup especially.', timestamp: daysAgo(1) },
      ] },
      { key: 'huge', label: 'logs', folder: '/work/logs', messages: [
        { role: 'user', content: `postgres migration log dump ${'x'.repeat(2000)}`, timestamp: daysAgo(30) },
      ] },
    ];
    for (const { key, ...body } of conversations) {
      const created = await api('POST', '/api/v1/conversations', body);
      assert.equal(created.status, 201, JSON.stringify(created.body));
      ids[key] = created.body.id;
    }
    assert.equal((await api('PUT', `/api/v1/conversations/${ids.archived}/archive`)).status, 200);
    await server.waitForEmbeddings();
  });

  after(async () => {
    await server?.stop();
    await bridge?.stop();
  });

  const conversationsOf = (messages: any[]) => new Set(messages.map((m) => m.conversation_id));

  test('default ranking puts the query match first, with citation metadata on every message', async () => {
    const response = await assemble({ query: 'postgres migration deadlock' });
    assert.equal(response.status, 200);
    assert.ok(Array.isArray(response.body));
    assert.equal(response.body[0].conversation_id, ids.db);
    for (const message of response.body) {
      for (const field of ['id', 'conversation_id', 'role', 'content', 'timestamp']) assert.equal(typeof message[field], 'string');
      assert.ok('embedding_id' in message);
      const { metadata } = message;
      assert.equal(typeof metadata.label, 'string');
      assert.equal(typeof metadata.folder, 'string');
      assert.equal(metadata.timestamp, message.timestamp);
      assert.ok(metadata.relevance_score >= 0 && metadata.relevance_score <= 1);
    }
    const scores = response.body.map((m: any) => m.metadata.relevance_score);
    assert.deepEqual(scores, [...scores].sort((a: number, b: number) => b - a));
  });

  test('pinned conversations and the last 7 days are recalled even without a match', async () => {
    for (const ranking of ['relevance', 'spec']) {
      const response = await assemble({ query: 'postgres migration deadlock', ranking });
      assert.equal(response.status, 200);
      const found = conversationsOf(response.body);
      assert.ok(found.has(ids.profile), `${ranking}: pinned`);
      assert.ok(found.has(ids.lunch), `${ranking}: recent`);
    }
  });

  test('archived conversations are left out', async () => {
    for (const ranking of ['relevance', 'spec']) {
      const response = await assemble({ query: 'archived notes postgres migration deadlock', ranking });
      assert.equal(response.status, 200);
      assert.ok(response.body.length > 0);
      assert.ok(!conversationsOf(response.body).has(ids.archived), ranking);
    }
  });

  test('excluded folders leave out their whole subtree, on segment boundaries, after normalization', async () => {
    const all = conversationsOf((await assemble({ query: 'postgres migration secret password' })).body);
    assert.ok(all.has(ids.secret) && all.has(ids.deep));
    for (const ranking of ['relevance', 'spec']) {
      const response = await assemble({ query: 'postgres migration secret password', excluded_folders: ['/secret//'], ranking });
      assert.equal(response.status, 200);
      const found = conversationsOf(response.body);
      assert.ok(!found.has(ids.secret), `${ranking}: /secret/keys`);
      assert.ok(!found.has(ids.deep), `${ranking}: /secret/keys/deeper`);
      assert.ok(found.has(ids.secretive), `${ranking}: /secretive is not below /secret`);
    }
    const none = await assemble({ query: 'postgres', excluded_folders: ['/'] });
    assert.deepEqual(none.body, []);
  });

  test('spec ranking scores 0.5*importance + 0.3*recency + 0.2*label_match', async () => {
    const response = await assemble({ query: 'anything at all', ranking: 'spec' });
    assert.equal(response.status, 200);
    const byConversation = new Map(response.body.map((m: any) => [m.conversation_id, m.metadata.relevance_score]));
    // Pinned (importance 10, 200 days old) and the lunch message (importance 5, one day old).
    const pinned = SPEC_WEIGHTS.importance * 1 + SPEC_WEIGHTS.recency * Math.pow(0.5, 200 / 7);
    const lunch = SPEC_WEIGHTS.importance * (4 / 9) + SPEC_WEIGHTS.recency * Math.pow(0.5, 1 / 7);
    assert.ok(Math.abs((byConversation.get(ids.profile) as number) - pinned) < 1e-9);
    assert.ok(Math.abs((byConversation.get(ids.lunch) as number) - lunch) < 1e-9);
    assert.equal(response.body[0].conversation_id, ids.profile);
  });

  test('preferred labels boost their conversations, trimmed and case-insensitively', async () => {
    for (const ranking of ['relevance', 'spec']) {
      const plain = await assemble({ query: 'anything at all', ranking });
      const boosted = await assemble({ query: 'anything at all', ranking, preferred_labels: [' CHAT '] });
      const score = (body: any[]) => body.find((m) => m.conversation_id === ids.lunch).metadata.relevance_score;
      assert.ok(score(boosted.body) > score(plain.body), ranking);
      assert.equal(boosted.body[0].conversation_id, ids.lunch, ranking);
    }
  });

  test('the budget less the 15% reserve is never exceeded; a message too large is skipped, not cut', async () => {
    for (const budget of [100, 150, 400, 1000]) {
      for (const ranking of ['relevance', 'spec']) {
        const response = await assemble({ query: 'postgres migration log dump', context_budget: budget, ranking });
        assert.equal(response.status, 200);
        const tokens = response.body.reduce((sum: number, m: any) => sum + Math.ceil([...m.content].length / 4), 0);
        assert.ok(tokens <= Math.floor(budget * 0.85), `${ranking} ${budget}: ${tokens}`);
        assert.ok(response.body.length > 0);
        assert.ok(!conversationsOf(response.body).has(ids.huge) || budget === 1000, `${ranking} ${budget}`);
      }
    }
    const roomy = await assemble({ query: 'postgres migration log dump', context_budget: 1000 });
    assert.ok(conversationsOf(roomy.body).has(ids.huge));
  });

  test('the same data and clock give the same answer', async () => {
    for (const ranking of ['relevance', 'spec']) {
      const first = await assemble({ query: 'postgres migration', ranking });
      const second = await assemble({ query: 'postgres migration', ranking });
      assert.deepEqual(first.body, second.body);
    }
  });

  test('the text variant: chosen by format or by max_tokens', async () => {
    const byMaxTokens = await assemble({ query: 'postgres migration deadlock', max_tokens: 200 });
    assert.equal(byMaxTokens.status, 200);
    const { context, token_count, conversation_ids, message_count, sources } = byMaxTokens.body;
    assert.equal(typeof context, 'string');
    assert.equal(token_count, Math.ceil([...context].length / 4));
    assert.ok(token_count <= 170);
    assert.equal(message_count, sources.length);
    assert.ok(message_count > 0);
    assert.ok(context.startsWith('[backend | /work/backend | '));
    assert.deepEqual(conversation_ids, [...new Set(sources.map((s: any) => s.conversation_id))]);
    for (const source of sources) {
      for (const field of ['message_id', 'conversation_id', 'label', 'folder', 'timestamp']) assert.equal(typeof source[field], 'string');
      assert.ok(source.relevance_score >= 0 && source.relevance_score <= 1);
    }

    const bare = await assemble({ query: 'postgres migration deadlock', format: 'text', include_metadata: false });
    assert.equal(bare.status, 200);
    assert.ok(bare.body.context.startsWith('user: The postgres migration'));
    assert.ok(!bare.body.context.includes('[backend |'));

    const asMessages = await assemble({ query: 'postgres migration deadlock', max_tokens: 200, format: 'messages' });
    assert.ok(Array.isArray(asMessages.body));
  });

  test('invalid requests are 400 with a JSON error naming the field', async () => {
    const cases: Array<[Record<string, unknown>, RegExp]> = [
      [{}, /query is required/],
      [{ query: '' }, /query/],
      [{ query: '   ' }, /query must not be blank/],
      [{ query: 'x', context_budget: 99 }, /context_budget/],
      [{ query: 'x', context_budget: 200_001 }, /context_budget/],
      [{ query: 'x', context_budget: 1.5 }, /context_budget/],
      [{ query: 'x', context_budget: '4000' }, /context_budget/],
      [{ query: 'x', max_tokens: 10 }, /max_tokens/],
      [{ query: 'x', context_budget: 1000, max_tokens: 1000 }, /either context_budget or max_tokens/],
      [{ query: 'x', excluded_folders: ['relative/path'] }, /excluded_folders\[0\] must start with "\/"/],
      [{ query: 'x', excluded_folders: ['/ok', '/a/../b'] }, /excluded_folders\[1\]/],
      [{ query: 'x', excluded_folders: '/work' }, /excluded_folders/],
      [{ query: 'x', excluded_folders: Array.from({ length: 101 }, (_, i) => `/f${i}`) }, /excluded_folders/],
      [{ query: 'x', preferred_labels: [42] }, /preferred_labels\[0\]/],
      [{ query: 'x', preferred_labels: ['  '] }, /preferred_labels\[0\] must not be blank/],
      [{ query: 'x', ranking: 'magic' }, /ranking must be one of: relevance, spec/],
      [{ query: 'x', format: 'xml' }, /format must be one of: messages, text/],
      [{ query: 'x', surprise: true }, /surprise is not a known field/],
    ];
    for (const [body, message] of cases) {
      const response = await assemble(body);
      assert.equal(response.status, 400, JSON.stringify(body));
      assert.match(response.body.error, message, JSON.stringify(body));
      assert.equal(typeof response.body.code, 'string');
    }
    const invalidJson = await fetch(`${server.baseUrl}/api/v1/context/assemble`, {
      method: 'POST', headers: { authorization: `Bearer ${server.apiKey}`, 'content-type': 'application/json' }, body: '{"query":',
    });
    assert.equal(invalidJson.status, 400);
  });

  test('semantic recall failing degrades to the other sources instead of failing', async () => {
    bridge.failWith = 503;
    try {
      const response = await assemble({ query: 'postgres migration deadlock' });
      assert.equal(response.status, 200);
      assert.equal(response.body[0].conversation_id, ids.db);
      const spec = await assemble({ query: 'postgres migration deadlock', ranking: 'spec' });
      assert.equal(spec.status, 200);
    } finally {
      bridge.failWith = null;
    }
  });

  test('the route is in the OpenAPI document', async () => {
    const response = await fetch(`${server.baseUrl}/openapi.json`);
    const document = await response.json() as { paths: Record<string, unknown> };
    assert.ok(document.paths['/api/v1/context/assemble']);
  });
});
