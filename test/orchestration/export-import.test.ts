import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { FakeBridge } from '../helpers/fake-bridge.js';
import { create } from './orchestration-helpers.js';
import { removeDir, type RunningService, startService } from '../helpers/service-harness.js';
import { ManualClock } from '../helpers/fakes.js';

const exportAs = (server: RunningService, body: Record<string, unknown>) =>
  server.api('POST', '/api/v1/export', JSON.stringify(body));
const jsonLines = (text: string) => text.split('\n').filter(Boolean).map((line) => JSON.parse(line));

describe('export and import', () => {
  let bridge: FakeBridge;
  let source: RunningService;
  let target: RunningService;
  const clock = new ManualClock('2025-01-10T08:00:00.000Z');
  const ids: Record<string, string> = {};

  before(async () => {
    bridge = await new FakeBridge().start();
    source = await startService({ bridge: { url: bridge.url }, clock });
    ids.jan = await create(source, { label: 'January backend', folder: '/work/backend', importance_score: 7, messages: [
      { role: 'user', content: 'Deadlock in the *migration*.\n\nSee `pg_locks`.', metadata: { source: 'cli', tags: ['db'] } },
      { role: 'assistant', content: 'Use smaller batches — ünïcödé ✓ and "quotes".', timestamp: '2025-01-10T09:30:00.000Z' },
      { role: 'system', content: 'Much later.', timestamp: '2025-01-10T12:00:00.000Z' },
    ] });
    assert.equal((await source.api('PUT', `/api/v1/conversations/${ids.jan}/pin`)).status, 200);
    clock.set('2025-02-10T08:00:00.000Z');
    ids.feb = await create(source, { label: 'February frontend', folder: '/work/frontend', messages: [
      { role: 'user', content: 'The button is misaligned.' },
    ] });
    assert.equal((await source.api('PUT', `/api/v1/conversations/${ids.feb}/archive`)).status, 200);
    clock.set('2025-03-10T08:00:00.000Z');
    ids.mar = await create(source, { label: 'March personal', folder: '/home', messages: [] });
    target = await startService({ bridge: { url: bridge.url }, clock });
  });
  after(async () => {
    await source.stop();
    await target.stop();
    await bridge.stop();
    removeDir(source.dataDir);
    removeDir(target.dataDir);
  });

  test('json export streams every conversation with its messages as an attachment', async () => {
    const response = await exportAs(source, { format: 'json' });
    assert.equal(response.status, 200);
    assert.match(response.headers.get('content-type')!, /^application\/json/);
    assert.match(response.headers.get('content-disposition')!, /^attachment; filename="memsvc-export-20250310T080000Z\.json"$/);
    const document = JSON.parse(response.text);
    assert.equal(document.format, 'memsvc-export');
    assert.equal(document.version, 1);
    assert.equal(document.conversation_count, 3);
    assert.deepEqual(document.conversations.map((c: any) => c.id), [ids.jan, ids.feb, ids.mar], 'oldest first');
    const jan = document.conversations[0];
    assert.equal(jan.label, 'January backend');
    assert.equal(jan.folder, '/work/backend');
    assert.equal(jan.importance_score, 10);
    assert.equal(jan.message_count, 3);
    assert.equal(jan.messages.length, 3);
    assert.deepEqual(jan.messages[0].metadata, { source: 'cli', tags: ['db'] });
    assert.equal(jan.messages[1].content, 'Use smaller batches — ünïcödé ✓ and "quotes".');
    assert.equal(document.conversations[1].status, 'archived');
    assert.deepEqual(document.conversations[2].messages, []);
  });

  test('jsonl holds one conversation per line; markdown reads as a document', async () => {
    const lines = await exportAs(source, { format: 'jsonl' });
    assert.equal(lines.status, 200);
    assert.match(lines.headers.get('content-type')!, /^application\/x-ndjson/);
    assert.match(lines.headers.get('content-disposition')!, /\.jsonl"$/);
    assert.deepEqual(jsonLines(lines.text).map((c) => c.id), [ids.jan, ids.feb, ids.mar]);

    const markdown = await exportAs(source, { format: 'markdown' });
    assert.equal(markdown.status, 200);
    assert.match(markdown.headers.get('content-type')!, /^text\/markdown/);
    assert.match(markdown.headers.get('content-disposition')!, /\.md"$/);
    assert.match(markdown.text, /^# memsvc export/);
    assert.match(markdown.text, /## January backend/);
    assert.match(markdown.text, /### assistant · 2025-01-10T09:30:00.000Z\n\nUse smaller batches/);
    assert.match(markdown.text, /3 conversations exported\./);
  });

  test('filters: folder subtree, and dates on the conversation lifespan (updated >= start, created <= end)', async () => {
    const idsOf = async (body: Record<string, unknown>) => {
      const response = await exportAs(source, { format: 'jsonl', ...body });
      assert.equal(response.status, 200, response.text);
      return jsonLines(response.text).map((c) => c.id);
    };
    assert.deepEqual(await idsOf({ folder: '/work' }), [ids.jan, ids.feb]);
    assert.deepEqual(await idsOf({ folder: '/work/backend/' }), [ids.jan]);
    assert.deepEqual(await idsOf({ folder: '/nothing' }), []);
    assert.deepEqual(await idsOf({ start_date: '2025-02-01' }), [ids.feb, ids.mar]);
    assert.deepEqual(await idsOf({ end_date: '2025-02-10' }), [ids.jan, ids.feb], 'a date end is inclusive of its day');
    assert.deepEqual(await idsOf({ start_date: '2025-02-01T00:00:00Z', end_date: '2025-02-28T23:59:59Z' }), [ids.feb]);
    const none = await exportAs(source, { format: 'json', start_date: '2030-01-01' });
    assert.deepEqual(JSON.parse(none.text).conversations, []);
  });

  test('bad export requests are 400s', async () => {
    for (const body of [{ format: 'xml' }, { start_date: 'yesterday' }, { end_date: '2025-13-45' },
      { start_date: '2025-03-01', end_date: '2025-02-01' }, { folder: 'relative/path' }, { folder: '/a/../b' }, { extra: 1 },
      { start_date: 5 }]) {
      const response = await exportAs(source, body);
      assert.equal(response.status, 400, `${JSON.stringify(body)}: ${response.text}`);
      assert.equal(typeof JSON.parse(response.text).error, 'string');
    }
    const noBody = await source.api('POST', '/api/v1/export');
    assert.equal(noBody.status, 200, 'every field has a default');
  });

  test('round trip: a jsonl export imported into an empty service gives the same conversations and messages', async () => {
    const exported = await exportAs(source, { format: 'jsonl' });
    const imported = await target.api('POST', '/api/v1/import', exported.text, { 'content-type': 'application/x-ndjson' });
    assert.equal(imported.status, 200, imported.text);
    assert.deepEqual(JSON.parse(imported.text), { imported: 3, replaced: 0, skipped: 0, messages: 4, renamed: [] });
    const again = await exportAs(target, { format: 'jsonl' });
    assert.deepEqual(jsonLines(again.text), jsonLines(exported.text));

    const original = await source.api('GET', `/api/v1/conversations/${ids.jan}?include=messages`);
    const copy = await target.api('GET', `/api/v1/conversations/${ids.jan}?include=messages`);
    const comparable = (c: any) => ({ ...c, messages: c.messages.map((m: any) => ({ ...m, embedding_id: null, embedding_status: null })) });
    assert.deepEqual(comparable(copy.body), comparable(original.body));
  });

  test('on_conflict: skip (default) keeps what is there, replace overwrites, new_id imports a copy', async () => {
    const exported = (await exportAs(source, { format: 'json' })).text;
    const skip = await target.api('POST', '/api/v1/import', exported);
    assert.equal(skip.status, 200, skip.text);
    assert.deepEqual(JSON.parse(skip.text), { imported: 0, replaced: 0, skipped: 3, messages: 0, renamed: [] });

    const replace = await target.api('POST', '/api/v1/import?on_conflict=replace', exported);
    assert.deepEqual(JSON.parse(replace.text), { imported: 3, replaced: 3, skipped: 0, messages: 4, renamed: [] });
    const afterReplace = await exportAs(target, { format: 'json' });
    assert.deepEqual(JSON.parse(afterReplace.text).conversations, JSON.parse(exported).conversations);

    const copy = await target.api('POST', '/api/v1/import?on_conflict=new_id', exported);
    const outcome = JSON.parse(copy.text);
    assert.equal(outcome.imported, 3);
    assert.deepEqual(outcome.renamed.map((r: any) => r.from), [ids.jan, ids.feb, ids.mar]);
    const renamedJan = outcome.renamed[0].to;
    const jan = await target.api('GET', `/api/v1/conversations/${renamedJan}?include=messages`);
    assert.equal(jan.body.label, 'January backend');
    assert.equal(jan.body.messages.length, 3);
    const originalIds = JSON.parse(exported).conversations[0].messages.map((m: any) => m.id);
    assert.ok(jan.body.messages.every((m: any) => !originalIds.includes(m.id)), 'taken message ids are replaced');
    assert.equal((await target.api('GET', '/api/v1/conversations/count')).body.count, 6);
  });

  test('a bad record refuses the whole import with a 400 naming it; nothing is stored', async () => {
    const before = (await target.api('GET', '/api/v1/conversations/count')).body.count;
    const good = JSON.stringify({ label: 'good', messages: [{ role: 'user', content: 'fine' }] });
    const cases: Array<[string, string, RegExp, string?]> = [
      [`${good}\n{not json\n`, 'application/x-ndjson', /^line 2 is not valid JSON$/, 'INVALID_JSON'],
      [`${good}\n\n${JSON.stringify({ label: 'bad', messages: [{ role: 'robot', content: 'x' }] })}`, 'application/x-ndjson',
        /^line 3: messages\[0\]\.role must be one of: user, assistant, system$/],
      [`${good}\n${JSON.stringify({ messages: [] })}`, 'application/x-ndjson', /^line 2: label is required$/],
      [`${good}\n[1, 2]`, 'application/x-ndjson', /^line 2 must be an object$/],
      [JSON.stringify({ conversations: [JSON.parse(good), { label: 'x', folder: 'no-slash', messages: [] }] }), 'application/json',
        /^conversations\[1\]\.folder must start with "\/"/],
      [JSON.stringify({ conversations: [{ label: 'x', id: 'nope', messages: [] }] }), 'application/json', /^conversations\[0\]\.id must be a UUID$/],
      [JSON.stringify({ conversations: [{ label: 'x', importance_score: 11, messages: [] }] }), 'application/json', /conversations\[0\]\.importance_score must be <= 10/],
      [JSON.stringify({ conversations: [{ label: 'x', created_at: 'soon', messages: [] }] }), 'application/json', /created_at is not an ISO 8601/],
      [JSON.stringify({ conversations: [{ label: 'x', messages: [{ role: 'user', content: 'x', metadata: [1] }] }] }),
        'application/json', /messages\[0\]\.metadata must be an object/],
      [JSON.stringify({ conversations: [{ label: 'x', messages: [{ role: 'user', content: 'x'.repeat(100_001) }] }] }),
        'application/json', /messages\[0\]\.content is longer than 100000 characters/, 'MESSAGE_TOO_LONG'],
      [JSON.stringify({ conversations: [{ label: 'x', messages: Array.from({ length: 10_001 }, () => ({ role: 'user', content: 'x' })) }] }),
        'application/json', /at most 10000 messages/, 'TOO_MANY_MESSAGES'],
      [JSON.stringify({ something: 'else' }), 'application/json', /Send a json export/],
      ['{"conversations": [', 'application/json', /not valid JSON/, 'INVALID_JSON'],
    ];
    for (const [body, type, message, code] of cases) {
      const response = await target.api('POST', '/api/v1/import', body, { 'content-type': type });
      assert.equal(response.status, 400, `${message}: ${response.text}`);
      const error = JSON.parse(response.text);
      assert.match(error.error, message);
      if (code) assert.equal(error.code, code);
    }
    assert.equal((await target.api('GET', '/api/v1/conversations/count')).body.count, before);

    const badConflict = await target.api('POST', '/api/v1/import?on_conflict=merge', good);
    assert.equal(badConflict.status, 400);
    const wrongType = await target.api('POST', '/api/v1/import', good, { 'content-type': 'text/csv' });
    assert.equal(wrongType.status, 415);
    const empty = await target.api('POST', '/api/v1/import', '', { 'content-type': 'application/x-ndjson' });
    assert.equal(empty.status, 200, 'an empty export imports nothing');
    assert.equal(JSON.parse(empty.text).imported, 0);

    // Control: the good record alone imports, and the same count probe sees it.
    const alone = await target.api('POST', '/api/v1/import', good, { 'content-type': 'application/x-ndjson' });
    assert.equal(JSON.parse(alone.text).imported, 1, alone.text);
    assert.equal((await target.api('GET', '/api/v1/conversations/count')).body.count, before + 1);
  });

  test('large exports stream page by page and import back', async () => {
    const fresh = await startService({ bridge: { url: bridge.url }, overrides: { embedding_worker: { enabled: false } } });
    try {
      const lines = Array.from({ length: 450 }, (_, i) => JSON.stringify({
        label: `bulk ${i}`, folder: '/bulk', created_at: new Date(Date.UTC(2025, 0, 1, 0, i)).toISOString(),
        messages: [{ role: 'user', content: `message ${i}`, timestamp: new Date(Date.UTC(2025, 0, 1, 0, i)).toISOString() }],
      }));
      const imported = await fresh.api('POST', '/api/v1/import', lines.join('\n'), { 'content-type': 'application/x-ndjson' });
      assert.equal(imported.status, 200, imported.text);
      assert.equal(JSON.parse(imported.text).imported, 450);
      const exported = await exportAs(fresh, { format: 'jsonl', folder: '/bulk' });
      const records = jsonLines(exported.text);
      assert.equal(records.length, 450);
      assert.deepEqual(records.map((r) => r.label), Array.from({ length: 450 }, (_, i) => `bulk ${i}`));
      assert.equal(records[449].messages[0].content, 'message 449');
    } finally {
      await fresh.stop();
      removeDir(fresh.dataDir);
    }
  });
});
