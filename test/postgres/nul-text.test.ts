import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { POSTGRES_TARGETS, type PostgresDatabase, type PostgresTarget } from '../helpers/postgres-servers.js';
import { FakeBridge } from '../helpers/fake-bridge.js';
import { removeDir, type RunningService, startService } from '../helpers/service-harness.js';

/** U+0000 cannot be stored in PostgreSQL text: both drivers refuse it the same way, with a 400, never a 500. */
for (const target of [null, ...POSTGRES_TARGETS] as Array<PostgresTarget | null>) {
  const driver = target ? 'postgres' : 'sqlite';
  describe(`NUL characters (${target ? `postgres: ${target.name}` : 'sqlite'})`, () => {
    let pg: PostgresDatabase | null = null;
    let bridge: FakeBridge;
    let service: RunningService;
    before(async () => {
      bridge = await new FakeBridge().start();
      if (target) pg = await target.open();
      service = await startService({ bridge: { url: bridge.url }, ...(pg ? { overrides: { storage: { driver, url: pg.url } } } : {}) });
    });
    after(async () => {
      await service.stop();
      await bridge.stop();
      await pg?.stop();
      removeDir(service.dataDir);
    });

    test('message content with U+0000 is a 400 naming the field; metadata strings are kept', async () => {
      const refused = await service.api('POST', '/api/v1/conversations', { label: 'x', messages: [{ role: 'user', content: 'a\u0000b' }] });
      assert.equal(refused.status, 400);
      assert.match(refused.body.error, /messages\[0\]\.content must not contain the NUL character/);
      const kept = await service.api('POST', '/api/v1/conversations',
        { label: 'x', messages: [{ role: 'user', content: 'fine', metadata: { raw: 'a\u0000b' } }] });
      assert.equal(kept.status, 201);
      const read = await service.api('GET', `/api/v1/conversations/${kept.body.id}?include=messages`);
      assert.equal(read.body.messages[0].metadata.raw, 'a\u0000b');
    });

    test('a search filter with U+0000 is a 400', async () => {
      const response = await service.api('POST', '/api/v1/query', { query: 'fine', mode: 'keyword', filters: { label: 'x\u0000' } });
      assert.equal(response.status, 400);
      assert.match(response.body.error, /filters\.label/);
    });

    test('label filters with control characters are a 400 on list, count and search alike', async () => {
      for (const path of ['/api/v1/conversations?label=x%00', '/api/v1/conversations/count?label=x%00', '/api/v1/conversations?label=a%07b']) {
        const response = await service.api('GET', path);
        assert.equal(response.status, 400, path);
        assert.deepEqual([response.body.code, response.body.error], ['INVALID_FILTER', 'label must not contain control characters'], path);
      }
      const search = await service.api('POST', '/api/v1/search/fts', { query: 'fine', filters: { label: 'tab\there' } });
      assert.equal(search.status, 400);
      assert.equal(search.body.code, 'INVALID_FILTER');
      // Positive control: an ordinary label filter answers.
      assert.equal((await service.api('GET', '/api/v1/conversations?label=x')).status, 200);
    });
  });
}
