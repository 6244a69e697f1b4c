import { after, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { rm } from 'node:fs/promises';
import { type RunningService, startService } from '../helpers/service-harness.js';
import { createConversation } from '../helpers/fixtures.js';

describe('restart persistence', () => {
  let dataDir: string | undefined;
  let server: RunningService | undefined;
  after(async () => {
    await server?.stop({ keepData: true });
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
  });

  it('a new controller on the same data dir serves everything that was stored', async () => {
    server = await startService();
    dataDir = server.dataDir;
    const plain = await createConversation(server, { label: 'plain', folder: '/work/backend' });
    const archived = await createConversation(server, { label: 'archived', importance: 2 });
    const pinned = await createConversation(server, {
      label: 'pinned',
      messages: [
        { role: 'user', content: 'first session', timestamp: '2025-01-01T09:00:00Z', metadata: { k: [1, 2] } },
        { role: 'assistant', content: 'second session here', timestamp: '2025-01-01T12:00:00Z' },
      ],
    });
    await server.api('PUT', `/api/v1/conversations/${archived}/archive`);
    await server.api('PUT', `/api/v1/conversations/${pinned}/pin`);
    await server.api('POST', `/api/v1/conversations/${plain}/messages`, { messages: [{ role: 'user', content: 'appended' }] });
    const deleted = await createConversation(server, { label: 'deleted' });
    await server.api('DELETE', `/api/v1/conversations/${deleted}`);

    const read = async (s: RunningService, id: string) => {
      const { last_accessed: _accessed, ...body } = (await s.api('GET', `/api/v1/conversations/${id}?include=messages`)).body;
      return body;
    };
    const before = {
      conversations: await Promise.all([plain, archived, pinned].map((id) => read(server!, id))),
      list: (await server.api('GET', '/api/v1/conversations')).body,
      folders: (await server.api('GET', '/api/v1/folders')).body,
    };
    assert.equal(before.list.total, 3);

    await server.stop({ keepData: true });
    server = await startService({ dataDir });

    const afterRestart = {
      conversations: await Promise.all([plain, archived, pinned].map((id) => read(server!, id))),
      list: (await server.api('GET', '/api/v1/conversations')).body,
      folders: (await server.api('GET', '/api/v1/folders')).body,
    };
    assert.deepEqual(afterRestart, before);
    const [plainAfter, archivedAfter, pinnedAfter] = afterRestart.conversations;
    assert.equal(plainAfter.message_count, 3);
    assert.equal(plainAfter.messages[2].content, 'appended');
    assert.equal(archivedAfter.status, 'archived');
    assert.equal(pinnedAfter.importance_score, 10);
    assert.equal(pinnedAfter.session_count, 2);
    assert.deepEqual(pinnedAfter.messages[0].metadata, { k: [1, 2] });
    assert.equal((await server.api('GET', `/api/v1/conversations/${deleted}`)).status, 404);
    assert.equal((await server.api('GET', '/stats')).body.total_messages, 3 + 2 + 2);

    const more = await server.api('POST', `/api/v1/conversations/${plain}/messages`, { messages: [{ role: 'user', content: 'again' }] });
    assert.equal(more.status, 201);
    assert.equal(more.body.messages[0].position, 3, 'positions continue after a restart');
  });
});
