import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import { DATABASE_FILE } from '../../src/controller.js';
import { type RunningService, startService } from '../helpers/service-harness.js';

/** storage.max_size_mb caps the file with SQLite's max_page_count: the same SQLITE_FULL a full disk gives. */
describe('disk full', () => {
  let server: RunningService;
  before(async () => { server = await startService({ overrides: { storage: { max_size_mb: 3 } } }); });
  after(() => server.stop());

  const create = (n: number) => server.api('POST', '/api/v1/conversations', {
    label: `full ${n}`, messages: [{ role: 'user', content: `${n} `.repeat(20_000) }],
  });

  it('refuses writes with a clear 507, keeps every acknowledged one, and recovers when space returns', async () => {
    const acknowledged: string[] = [];
    let refused: Awaited<ReturnType<typeof create>> | null = null;
    for (let n = 0; n < 500 && !refused; n++) {
      const response = await create(n);
      if (response.status === 201) acknowledged.push(response.body.id);
      else refused = response;
    }
    assert.ok(refused, 'the cap was never reached');
    assert.equal(refused.status, 507, refused.text);
    assert.equal(refused.body.code, 'STORAGE_FULL');
    assert.ok(acknowledged.length > 0);

    // Reads still work; every acknowledged conversation is there whole.
    const count = await server.api('GET', '/api/v1/conversations/count');
    assert.equal(count.body.count, acknowledged.length);
    for (const id of acknowledged.slice(-3)) {
      const messages = await server.api('GET', `/api/v1/conversations/${id}/messages`);
      assert.equal(messages.status, 200);
      assert.equal(messages.body.results.length, 1);
    }

    // Deleting needs a little space too (index tombstones): refused the same way, nothing changed.
    const deleted = await server.api('DELETE', `/api/v1/conversations/${acknowledged[0]}`);
    assert.ok(deleted.status === 200 || deleted.status === 507, deleted.text);
    if (deleted.status === 200) acknowledged.shift();

    // Space returns: here another connection, without the cap, deletes five conversations and frees their pages
    // (the service's own connections keep the cap they opened with). Writes succeed again.
    const freed = acknowledged.splice(0, 5);
    const outside = new BetterSqlite3(join(server.dataDir, DATABASE_FILE));
    try {
      outside.pragma('foreign_keys = ON');
      const remove = outside.prepare('DELETE FROM conversations WHERE id = ?');
      outside.transaction(() => { for (const id of freed) remove.run(id); })();
    } finally {
      outside.close();
    }
    const again = await create(1000);
    assert.equal(again.status, 201, again.text);
    assert.equal((await server.api('GET', '/api/v1/conversations/count')).body.count, acknowledged.length + 1);

    // Nothing corrupted.
    const check = new BetterSqlite3(join(server.dataDir, DATABASE_FILE), { readonly: true });
    try {
      assert.equal(check.pragma('integrity_check', { simple: true }), 'ok');
    } finally {
      check.close();
    }
  });
});
