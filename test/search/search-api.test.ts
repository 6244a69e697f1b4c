import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { removeDir, type RunningService, startService } from '../helpers/service-harness.js';

/** Search through the real controller and the real bridge with its builtin offline engine. */
describe('search API (builtin offline engine)', () => {
  let stack: RunningService;
  let dataDir: string;
  const ids: Record<string, string> = {};
  const api = (method: string, path: string, body?: unknown) => stack.api(method, path, body) as Promise<{ status: number; body: any }>;

  before(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'memsvc-search-'));
    stack = await startService({ bridge: 'builtin', dataDir });
    const conversations = [
      { key: 'trip', label: 'travel', folder: '/personal/travel', importance_score: 7, messages: [
        { role: 'user', content: 'I am planning a trip to Lisbon next spring with my sister.', timestamp: '2026-03-01T10:00:00Z' },
        { role: 'assistant', content: 'Lisbon is lovely in April; book the tram tour early.', timestamp: '2026-03-01T10:01:00Z' },
      ] },
      { key: 'db', label: 'backend', folder: '/work/backend', importance_score: 4, messages: [
        { role: 'user', content: 'Our postgres database migration failed with a deadlock.', timestamp: '2026-05-01T09:00:00Z' },
        { role: 'assistant', content: 'Run the migration in smaller batches and add the index first.', timestamp: '2026-05-01T09:01:00Z' },
      ] },
      { key: 'shop', label: 'workshop', folder: '/workshop', messages: [
        { role: 'user', content: 'The woodworking workshop needs a new table saw blade.', timestamp: '2026-06-01T12:00:00Z' },
      ] },
      { key: 'pets', label: 'pets', folder: '/personal', messages: [
        { role: 'user', content: 'My dog Rex loves long walks in the park every morning.', timestamp: '2026-07-01T08:00:00Z' },
      ] },
    ];
    for (const { key, ...body } of conversations) {
      const created = await api('POST', '/api/v1/conversations', body);
      assert.equal(created.status, 201);
      ids[key] = created.body.id;
    }
    await api('PUT', `/api/v1/conversations/${ids.shop}/archive`);
    await stack.waitForEmbeddings();
  });

  after(async () => {
    await stack.stop();
    removeDir(dataDir);
  });

  test('semantic search generalizes beyond the exact words', async () => {
    const response = await api('POST', '/api/v1/query', { query: 'vacation in Portugal', mode: 'semantic', limit: 3 });
    assert.equal(response.status, 200);
    assert.equal(response.body.results[0].conversation_id, ids.trip);
    const puppy = await api('POST', '/api/v1/query', { query: 'puppy exercise', mode: 'semantic', limit: 1 });
    assert.equal(puppy.body.results[0].conversation_id, ids.pets);
  });

  test('every mode returns the search-hit shape with scores in 0..1, best first', async () => {
    for (const mode of ['hybrid', 'semantic', 'keyword']) {
      const response = await api('POST', '/api/v1/query', { query: 'database migration deadlock', mode, limit: 5 });
      assert.equal(response.status, 200, mode);
      assert.equal(response.body.mode, mode);
      const { results } = response.body;
      assert.ok(results.length > 0, mode);
      assert.equal(results[0].conversation_id, ids.db, mode);
      for (const hit of results) {
        assert.ok(hit.score >= 0 && hit.score <= 1, `${mode} score ${hit.score}`);
        for (const field of ['conversation_id', 'message_id', 'content', 'label', 'folder', 'timestamp']) {
          assert.equal(typeof hit[field], 'string', `${mode} ${field}`);
        }
        assert.equal(typeof hit.metadata, 'object');
      }
      const scores = results.map((hit: any) => hit.score);
      assert.deepEqual(scores, [...scores].sort((a: number, b: number) => b - a), mode);
      assert.equal(response.body.page, 1);
      assert.equal(response.body.page_size, 5);
    }
  });

  test('the default mode is hybrid', async () => {
    const response = await api('POST', '/api/v1/query', { query: 'Lisbon' });
    assert.equal(response.body.mode, 'hybrid');
    assert.equal(response.body.page_size, 10);
  });

  test('filters: folder subtree, label, importance range, dates and archived', async () => {
    const query = async (filters: object) => {
      const response = await api('POST', '/api/v1/query', { query: 'plans trip database saw dog', limit: 50, filters });
      assert.equal(response.status, 200, JSON.stringify(response.body));
      return new Set(response.body.results.map((hit: any) => hit.conversation_id));
    };
    assert.deepEqual(await query({ folder: '/personal' }), new Set([ids.trip, ids.pets]));
    const work = await query({ folder: '/work' });
    assert.ok(work.has(ids.db) && !work.has(ids.shop), '/work must not match /workshop');
    assert.deepEqual(await query({ label: 'travel' }), new Set([ids.trip]));
    assert.deepEqual(await query({ importance_min: 6 }), new Set([ids.trip]));
    assert.ok(!(await query({ importance_max: 5 })).has(ids.trip));
    assert.deepEqual(await query({ date_from: '2026-04-01T00:00:00Z', date_to: '2026-05-31T00:00:00Z' }), new Set([ids.db]));
    assert.deepEqual(await query({ archived: true }), new Set([ids.shop]));
    assert.ok(!(await query({ archived: false })).has(ids.shop));
  });

  test('offset and limit page through one ranking', async () => {
    const all = await api('POST', '/api/v1/query', { query: 'the', mode: 'semantic', limit: 6 });
    const second = await api('POST', '/api/v1/query', { query: 'the', mode: 'semantic', limit: 2, offset: 2 });
    assert.deepEqual(second.body.results.map((h: any) => h.message_id), all.body.results.slice(2, 4).map((h: any) => h.message_id));
    assert.equal(second.body.page, 2);
    assert.equal(second.body.total, all.body.total);
  });

  test('bad query requests are 400 with a message naming the problem', async () => {
    const cases: Array<[object, RegExp]> = [
      [{}, /query is required/],
      [{ query: '' }, /query/],
      [{ query: 'x', limit: 1001 }, /limit/],
      [{ query: 'x', limit: 0 }, /limit/],
      [{ query: 'x', offset: 995, limit: 10 }, /offset \+ limit/],
      [{ query: 'x', mode: 'fuzzy' }, /mode must be one of/],
      [{ query: 'x', filters: { folder: 'no-slash' } }, /filters.folder/],
      [{ query: 'x', filters: { importance_min: 8, importance_max: 3 } }, /importance_min/],
      [{ query: 'x', filters: { importance_min: 11 } }, /importance_min/],
      [{ query: 'x', filters: { importance_max: 0 } }, /importance_max/],
      [{ query: 'x', filters: { date_from: 'yesterday' } }, /date_from/],
      [{ query: 'x', filters: { colour: 'red' } }, /colour/],
      [{ query: 42 }, /query must be/],
    ];
    for (const [body, message] of cases) {
      const response = await api('POST', '/api/v1/query', body);
      assert.equal(response.status, 400, JSON.stringify(body));
      assert.match(response.body.error, message, JSON.stringify(body));
      assert.equal(typeof response.body.code, 'string');
    }
  });

  test('full-text search: words, phrases, AND, OR, NOT, and a default limit of 10', async () => {
    const fts = async (query: string, extra: object = {}) => {
      const response = await api('POST', '/api/v1/search/fts', { query, ...extra });
      assert.equal(response.status, 200, `${query}: ${JSON.stringify(response.body)}`);
      return response.body;
    };
    const lisbon = await fts('Lisbon');
    assert.equal(lisbon.total, 2);
    const hit = lisbon.results[0];
    for (const field of ['id', 'conversation_id', 'role', 'content', 'timestamp']) assert.equal(typeof hit[field], 'string');
    assert.ok('embedding_id' in hit && 'metadata' in hit);
    assert.equal((await fts('"tram tour"')).total, 1);
    assert.equal((await fts('"tour tram"')).total, 0, 'a phrase keeps word order');
    assert.equal((await fts('migration AND deadlock')).total, 1);
    assert.equal((await fts('deadlock OR saw')).total, 2);
    assert.equal((await fts('migration NOT deadlock')).total, 1);
    assert.equal((await fts('migration AND NOT deadlock')).total, 1);
    assert.equal((await fts('migrations')).total, 2, 'stemming matches other word forms');
    assert.equal((await fts('Lisbon', { limit: 1 })).results.length, 1);

    for (let i = 0; i < 12; i += 1) {
      await api('POST', `/api/v1/conversations/${ids.pets}/messages`, { messages: [{ role: 'user', content: `walk number ${i}` }] });
    }
    const walks = await fts('walk');
    assert.equal(walks.results.length, 10);
    assert.equal(walks.total, 13, 'the 12 appended messages and "walks" in the first one');
  });

  test('malformed full-text syntax is a 400 that explains the syntax, never a 500', async () => {
    for (const query of ['"unterminated', 'AND', 'migration AND', '(deadlock', 'NOT', 'a OR OR b', '*', 'col:umn', '"a" NEAR(',
      ')', 'deadlock) OR (', 'content:', '"', 'NEAR(a b, -1)', '^', '{content context', 'a + + b', '-migration']) {
      const response = await api('POST', '/api/v1/search/fts', { query });
      assert.equal(response.status, 400, `${query}: ${JSON.stringify(response.body)}`);
      assert.equal(response.body.code, 'INVALID_QUERY', query);
      assert.match(response.body.error, /phrases/, query);
    }
  });

  test('bad full-text requests are 400 naming the problem', async () => {
    const cases: Array<[object, RegExp]> = [
      [{}, /query is required/],
      [{ query: '' }, /query/],
      [{ query: 'x', limit: 1001 }, /limit/],
      [{ query: 'x', offset: 999, limit: 2 }, /offset \+ limit/],
      [{ query: 'x', limit: 'ten' }, /limit must be/],
      [{ query: 'x', filters: { folder: '../etc' } }, /filters.folder/],
      [{ query: 'x', sort: 'date' }, /sort is not a known field/],
      [{ query: 'a'.repeat(2001) }, /query must (be|have) at most 2000 characters|query.*2000/],
      [{ query: Array.from({ length: 65 }, (_, i) => `w${i}`).join(' ') }, /more than 64 terms/],
    ];
    for (const [body, message] of cases) {
      const response = await api('POST', '/api/v1/search/fts', body);
      assert.equal(response.status, 400, JSON.stringify(body));
      assert.match(response.body.error, message, JSON.stringify(body));
    }
  });

  test('natural-language questions never break hybrid or keyword search', async () => {
    for (const query of ['What did "Rex" do?', 'AND OR NOT', '(((', 'who? when? -- ; DROP TABLE messages', '***']) {
      for (const mode of ['hybrid', 'keyword']) {
        const response = await api('POST', '/api/v1/query', { query, mode });
        assert.equal(response.status, 200, `${mode} ${query}: ${JSON.stringify(response.body)}`);
      }
    }
  });

  // Last: it stops the bridge.
  test('with the builtin model, questions are embedded in process: the same results, and semantic search outlives the bridge', async () => {
    const question = { query: 'vacation in Portugal', mode: 'semantic', limit: 4 };
    const viaBridge = await api('POST', '/api/v1/query', question);
    assert.equal(viaBridge.status, 200);
    await stack.stopBridge();
    // The first question set the in-process embedder loading; until it has, questions need the bridge (503).
    let alone = await api('POST', '/api/v1/query', question);
    for (let tries = 0; alone.status !== 200 && tries < 100; tries += 1) {
      assert.equal(alone.status, 503, JSON.stringify(alone.body));
      await new Promise((resolve) => setTimeout(resolve, 100));
      alone = await api('POST', '/api/v1/query', question);
    }
    assert.equal(alone.status, 200, JSON.stringify(alone.body));
    const hits = (body: any) => body.results.map((hit: any) => [hit.message_id, hit.score]);
    // Identical scores: the controller's vector of the question is the bridge's to the bit.
    assert.deepEqual(hits(alone.body), hits(viaBridge.body));
    assert.ok(alone.body.results.length > 0);
  });
});

describe('search.query_embedding: bridge', () => {
  test('every question goes to the bridge: with the bridge stopped, semantic search is unavailable (503), never answered in process', async () => {
    const stack = await startService({ bridge: 'builtin', overrides: { search: { query_embedding: 'bridge' } } });
    try {
      const created = await stack.api('POST', '/api/v1/conversations', {
        label: 'travel', messages: [{ role: 'user', content: 'I am planning a trip to Lisbon next spring with my sister.' }],
      });
      assert.equal(created.status, 201);
      await stack.waitForEmbeddings();
      const question = { query: 'vacation in Portugal', mode: 'semantic', limit: 1 };
      assert.equal((await stack.api('POST', '/api/v1/query', question)).status, 200);
      await stack.stopBridge();
      // Long enough for an in-process embedder to have loaded (auto answers within about a second here).
      for (let tries = 0; tries < 15; tries += 1) {
        const alone = await stack.api('POST', '/api/v1/query', question);
        assert.equal(alone.status, 503, JSON.stringify(alone.body));
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    } finally {
      await stack.stop();
    }
  });
});
