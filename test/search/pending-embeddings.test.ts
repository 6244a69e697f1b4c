import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { type RunningService, startService } from '../helpers/service-harness.js';

describe('a vector search says how many messages are not embedded yet', () => {
  let server: RunningService;
  // The worker is off: what is stored stays pending.
  before(async () => { server = await startService(); });
  after(() => server.stop());

  test('semantic and hybrid answers carry pending_embeddings; keyword answers do not', async () => {
    await server.api('POST', '/api/v1/conversations', {
      label: 'waiting', messages: [{ role: 'user', content: 'a lighthouse keeper' }, { role: 'assistant', content: 'keeps the light on' }],
    });
    const semantic = await server.api('POST', '/api/v1/query', { query: 'lighthouse', mode: 'semantic' });
    assert.equal(semantic.status, 200);
    assert.equal(semantic.body.pending_embeddings, 2);
    const hybrid = await server.api('POST', '/api/v1/query', { query: 'lighthouse' });
    assert.equal(hybrid.body.pending_embeddings, 2);
    const keyword = await server.api('POST', '/api/v1/query', { query: 'lighthouse', mode: 'keyword' });
    assert.equal(keyword.body.pending_embeddings, undefined);
    assert.equal(keyword.body.results[0].content, 'a lighthouse keeper');
  });
});
