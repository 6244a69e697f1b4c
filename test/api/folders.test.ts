import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { type RunningService, startService } from '../helpers/service-harness.js';
import { countConversations, createConversation } from '../helpers/fixtures.js';

describe('folder semantics', () => {
  let server: RunningService;
  before(async () => { server = await startService(); });
  after(() => server.stop());

  const folderOf = async (id: string) => (await server.api('GET', `/api/v1/conversations/${id}`)).body.folder;

  it('normalizes repeated and trailing slashes on create, relabel and move', async () => {
    const created = await server.api('POST', '/api/v1/conversations', { label: 'n', folder: '/work//backend/', messages: [] });
    assert.equal(created.status, 201);
    assert.equal(created.body.folder, '/work/backend');
    const id = created.body.id;
    assert.equal(await folderOf(id), '/work/backend');

    await server.api('PUT', `/api/v1/conversations/${id}/folder`, { folder: '//notes///2025//' });
    assert.equal(await folderOf(id), '/notes/2025');
    await server.api('PUT', `/api/v1/conversations/${id}/label`, { label: 'n', folder: ' /trimmed/ ' });
    assert.equal(await folderOf(id), '/trimmed');
    await server.api('PUT', `/api/v1/conversations/${id}/folder`, { folder: '///' });
    assert.equal(await folderOf(id), '/');
  });

  it('rejects a folder without a leading slash and with . or .. segments', async () => {
    for (const folder of ['work', 'work/backend', '/work/../etc', '/./work', '/work/.', '..', '/a/\u0001b', '/a\\b']) {
      const response = await server.api('POST', '/api/v1/conversations', { label: 'bad', folder, messages: [] });
      assert.equal(response.status, 400, `${JSON.stringify(folder)}: ${response.text}`);
      assert.equal(response.body.code, 'INVALID_FOLDER');
      assert.match(response.body.error, /folder/);
    }
    assert.equal(await countConversations(server, '?label=bad'), 0);
    // Control: the same create with a valid folder is stored and counted.
    assert.equal((await server.api('POST', '/api/v1/conversations', { label: 'bad', folder: '/valid', messages: [] })).status, 201);
    assert.equal(await countConversations(server, '?label=bad'), 1);
  });

  it('a folder filter matches the folder and its subfolders on segment boundaries only', async () => {
    const work = await createConversation(server, { label: 'sub', folder: '/work' });
    const backend = await createConversation(server, { label: 'sub', folder: '/work/backend' });
    const deep = await createConversation(server, { label: 'sub', folder: '/work/backend/db' });
    const workshop = await createConversation(server, { label: 'sub', folder: '/workshop' });
    const dashed = await createConversation(server, { label: 'sub', folder: '/work-notes' });
    const root = await createConversation(server, { label: 'sub', folder: '/' });

    const ids = async (folder: string) => {
      const response = await server.api('GET', `/api/v1/conversations?label=sub&folder=${encodeURIComponent(folder)}`);
      assert.equal(response.status, 200, response.text);
      return new Set(response.body.results.map((r: { conversation_id: string }) => r.conversation_id));
    };
    assert.deepEqual(await ids('/work'), new Set([work, backend, deep]));
    assert.deepEqual(await ids('/work/'), new Set([work, backend, deep]), 'the filter is normalized too');
    assert.deepEqual(await ids('/work/backend'), new Set([backend, deep]));
    assert.deepEqual(await ids('/workshop'), new Set([workshop]));
    assert.deepEqual(await ids('/wor'), new Set());
    assert.deepEqual(await ids('/'), new Set([work, backend, deep, workshop, dashed, root]));
    assert.equal((await server.api('GET', '/api/v1/conversations/count?folder=/work')).body.count, 3);
  });

  it('a folder filter with . or .. is refused rather than resolved', async () => {
    const response = await server.api('GET', '/api/v1/conversations?folder=/work/../workshop');
    assert.equal(response.status, 400);
    assert.equal(response.body.code, 'INVALID_FOLDER');
  });
});
