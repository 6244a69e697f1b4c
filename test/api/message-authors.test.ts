import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { type RunningService, startService } from '../helpers/service-harness.js';

/** A message's `name` (its author, as OpenAI's chat message field) through every route that takes or returns messages. */
describe('message author names', () => {
  let server: RunningService;
  let copy: RunningService;
  let id: string;
  before(async () => {
    [server, copy] = await Promise.all([startService(), startService()]);
    const created = await server.api('POST', '/api/v1/conversations', {
      label: 'painting club', folder: '/club', messages: [
        { role: 'user', name: '  Melanie ', content: 'I painted a sunrise over the lake' },
        { role: 'assistant', content: 'Lovely colours' },
      ],
    });
    assert.equal(created.status, 201, created.text);
    id = created.body.id;
  });
  after(() => Promise.all([server.stop(), copy.stop()]));

  const names = (messages: Array<{ name: string | null }>) => messages.map((message) => message.name);

  it('create and append take a name, trimmed; every read of the messages returns it, null without one', async () => {
    const appended = await server.api('POST', `/api/v1/conversations/${id}/messages`, {
      messages: [{ role: 'user', name: 'Caroline', content: 'Which lake was it?' }],
    });
    assert.equal(appended.status, 201, appended.text);
    assert.deepEqual(names(appended.body.messages), ['Caroline']);
    const withMessages = await server.api('GET', `/api/v1/conversations/${id}?include=messages`);
    assert.deepEqual(names(withMessages.body.messages), ['Melanie', null, 'Caroline']);
    const page = await server.api('GET', `/api/v1/conversations/${id}/messages`);
    assert.deepEqual(names(page.body.results), ['Melanie', null, 'Caroline']);
  });

  it('full-text hits, search hits and context messages carry the name', async () => {
    const fullText = await server.api('POST', '/api/v1/search/fts', { query: 'sunrise' });
    assert.equal(fullText.status, 200, fullText.text);
    assert.deepEqual(names(fullText.body.results), ['Melanie']);
    // Keyword search also finds the reply by its neighbour's words: the reply has no name.
    const query = await server.api('POST', '/api/v1/query', { query: 'sunrise', mode: 'keyword' });
    assert.equal(query.status, 200, query.text);
    assert.deepEqual(query.body.results.map((hit: { content: string; metadata: { name: string | null } }) => [hit.content, hit.metadata.name]),
      [['I painted a sunrise over the lake', 'Melanie'], ['Lovely colours', null]]);
    const context = await server.api('POST', '/api/v1/context/assemble', { query: 'the sunrise Melanie painted' });
    assert.equal(context.status, 200, context.text);
    const sunrise = context.body.find((message: { content: string }) => message.content.includes('sunrise'));
    assert.equal(sunrise?.name, 'Melanie');
  });

  it('a name that is empty, blank, over 100 characters, not a string or holds a control character is a 400 naming the field', async () => {
    const bad: unknown[] = ['', '   ', 'x'.repeat(101), 42, ['Melanie'], 'Mela\nnie'];
    for (const name of bad) {
      const message = { role: 'user', name, content: 'hello' };
      const created = await server.api('POST', '/api/v1/conversations', { label: 'bad name', messages: [message] });
      assert.equal(created.status, 400, `create with name ${JSON.stringify(name)}: ${created.text}`);
      assert.match(created.body.error, /^messages\[0\]\.name /);
      const appended = await server.api('POST', `/api/v1/conversations/${id}/messages`, { messages: [message] });
      assert.equal(appended.status, 400, `append with name ${JSON.stringify(name)}: ${appended.text}`);
      assert.match(appended.body.error, /^messages\[0\]\.name /);
    }
    const longest = await server.api('POST', '/api/v1/conversations', {
      label: 'long name', messages: [{ role: 'user', name: ` ${'x'.repeat(100)} `, content: 'hello' }],
    });
    assert.equal(longest.status, 201, '100 characters after trimming is the limit');
  });

  it('a null name is no name, so messages read back can be created again as they are', async () => {
    const original = await server.api('GET', `/api/v1/conversations/${id}?include=messages`);
    const messages = original.body.messages.map(({ role, name, content }: { role: string; name: string | null; content: string }) =>
      ({ role, name, content }));
    assert.ok(messages.some((message: { name: string | null }) => message.name === null));
    const recreated = await server.api('POST', '/api/v1/conversations', { label: 'painting club, again', messages });
    assert.equal(recreated.status, 201, recreated.text);
    const stored = await server.api('GET', `/api/v1/conversations/${recreated.body.id}?include=messages`);
    assert.deepEqual(names(stored.body.messages), names(original.body.messages));
  });

  it('the json export carries names, and import stores them again', async () => {
    const exported = await server.api('POST', '/api/v1/export', { format: 'json', folder: '/club' });
    assert.equal(exported.status, 200);
    const [record] = JSON.parse(exported.text).conversations;
    assert.deepEqual(record.messages.map((message: Record<string, unknown>) => message.name), ['Melanie', undefined, 'Caroline']);
    assert.ok(!('name' in record.messages[1]), 'a message without a name leaves the field out');

    const imported = await copy.api('POST', '/api/v1/import', exported.text);
    assert.equal(imported.status, 200, imported.text);
    const stored = await copy.api('GET', `/api/v1/conversations/${id}?include=messages`);
    assert.deepEqual(names(stored.body.messages), ['Melanie', null, 'Caroline']);

    const markdown = await server.api('POST', '/api/v1/export', { format: 'markdown', folder: '/club' });
    assert.match(markdown.text, /### user · Melanie · /);
  });

  it('an imported record with a bad name is refused whole with a 400 naming it', async () => {
    const record = { label: 'imported', messages: [{ role: 'user', name: 'x'.repeat(101), content: 'hello' }] };
    const refused = await copy.api('POST', '/api/v1/import', { conversations: [record] });
    assert.equal(refused.status, 400, refused.text);
    assert.match(refused.body.error, /conversations\[0\]\.messages\[0\]\.name/);
  });
});
