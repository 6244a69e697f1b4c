import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, type TestServer } from '../helpers/test-server.js';

describe('a vector search says how many messages are not embedded yet', () => {
  let server: TestServer;
  // The worker is off: what is stored stays pending.
  before(async () => { server = await startTestServer(); });
  after(() => server.stop());

  test('semantic and hybrid answers carry pending_embeddings; keyword answers do not', async () => {
    await server.api('POST', '/api/v1/conversations', {
      label: 'waiting', messages: [{ role: 'user', content: 'a lighthouse keeper' }, { role: 'assistant', content: 'keeps the light on' }],
    });
    const semantic = await server.api('POST', '/api/v1/query', { query: 'lighthouse', mode: 'semantic' });
    assert.equal(semantic.status, 200);
    assert.equal(semantic.json.pending_embeddings, 2);
    const hybrid = await server.api('POST', '/api/v1/query', { query: 'lighthouse' });
    assert.equal(hybrid.json.pending_embeddings, 2);
    const keyword = await server.api('POST', '/api/v1/query', { query: 'lighthouse', mode: 'keyword' });
    assert.equal(keyword.json.pending_embeddings, undefined);
    assert.equal(keyword.json.results[0].content, 'a lighthouse keeper');
  });
});
