import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { fileURLToPath } from 'node:url';
import BetterSqlite3 from 'better-sqlite3';
import { copySqliteToPostgres } from '../../src/adapters/postgres/copy-from-sqlite.js';
import { createPool } from '../../src/adapters/postgres/postgres-pool.js';
import { migrate, MIGRATIONS } from '../../src/adapters/sqlite/sqlite-migrations.js';
import { DATABASE_FILE } from '../../src/adapters/sqlite/sqlite-storage.js';
import { FakeBridge } from '../helpers/fake-bridge.js';
import { PGLITE_TARGET, POSTGRES_TARGETS, type PostgresDatabase } from '../helpers/postgres-servers.js';
import { removeDir, type RunningService, startService } from '../helpers/service-harness.js';
import { waitFor } from '../helpers/wait-for.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const run = promisify(execFile);

/** The day a user outgrows one machine: `memsvc migrate --to postgres://…` moves the SQLite store without re-embedding. */
for (const target of POSTGRES_TARGETS) {
  describe(`moving a SQLite store to PostgreSQL (${target.name})`, () => {
    let bridge: FakeBridge;
    let pg: PostgresDatabase;
    let source: RunningService;
    const ids: string[] = [];
    /** A scoped key and a tenant token made on SQLite: both must work on the copy. */
    const credentials: string[] = [];

    before(async () => {
      [bridge, pg] = await Promise.all([new FakeBridge().start(), target.open()]);
      source = await startService({ bridge: { url: bridge.url } });
      for (let i = 0; i < 7; i += 1) {
        const created = await source.api('POST', '/api/v1/conversations', {
          label: `topic ${i % 3}`, folder: `/projects/p${i}`, importance_score: 1 + i,
          messages: [
            { role: 'user', name: `Gardener ${i}`, content: `Project ${i}: the greenhouse sensors report humidity ${40 + i}%`, metadata: { n: i } },
            { role: 'assistant', content: `Noted for project ${i}; water the orchids on Friday.` },
          ],
        });
        ids.push(created.body.id);
      }
      await waitFor(() => source.api('GET', '/api/v1/embeddings/status'), { what: 'all 14 source messages embedded', until: (r) => r.body.pending === 0 && r.body.done === 14 });
      const key = await source.api('POST', '/api/v1/keys', { name: 'moved', grants: [{ folder: '/projects/p1', access: 'read' }] });
      const token = await source.api('POST', '/api/v1/keys/me/tokens', { grants: [{ folder: '/projects/p1', access: 'read' }] },
        { authorization: `Bearer ${key.body.key}` });
      credentials.push(key.body.key, token.body.token);
      assert.equal((await source.api('POST', '/api/v1/summarize', { conversation_id: ids[0], level: 'daily' })).status, 200);
      await source.stop({ keepData: true });
    });

    after(async () => {
      await bridge.stop();
      await pg.stop();
      removeDir(source.dataDir);
    });

    test('an interrupted copy resumes, verifies every count, and the copy serves search without re-embedding', async () => {
      const partial = await copySqliteToPostgres({ dataDir: source.dataDir, url: pg.url, batchSize: 3, maxBatches: 1 });
      assert.deepEqual([partial.copied, partial.complete, partial.verified], [3, false, false]);

      const { stderr } = await run(process.execPath, ['--import', 'tsx', 'src/cli.ts', 'migrate', '--to', pg.url], {
        cwd: ROOT, env: { ...process.env, MEMSVC_CONFIG: '/nonexistent', MEMSVC_DATA_DIR: source.dataDir },
      });
      assert.match(stderr, /copied 4 conversations \(3 already there\)/);
      assert.match(stderr, /vectors\s+14 → 14/);
      assert.match(stderr, /summaries\s+1 → 1/);
      assert.match(stderr, /verified/);
      assert.match(stderr, /copying conversations: 7 of 7/, 'plain progress lines when not on a terminal');

      const callsBefore = bridge.embedCalls;
      const target = await startService({ bridge: { url: bridge.url }, overrides: { storage: { driver: 'postgres', url: pg.url } } });
      try {
        const status = await target.api('GET', '/api/v1/embeddings/status');
        assert.deepEqual([status.body.pending, status.body.done, status.body.model], [0, 14, bridge.model]);
        const original = await target.api('GET', `/api/v1/conversations/${ids[4]}?include=messages`);
        assert.equal(original.body.folder, '/projects/p4');
        assert.deepEqual(original.body.messages[0].metadata, { n: 4 });
        assert.deepEqual(original.body.messages.map((m: { name: string | null }) => m.name), ['Gardener 4', null], 'author names move too');
        // The replica builds its graph of the moved vectors from the database first (storage.vector_index: local).
        await waitFor(() => target.api('GET', '/health/detailed'), { what: 'the replica\'s graph to have caught up',
          until: (r) => ['ready', 'database'].includes(r.body?.index?.state) });
        const semantic = await target.api('POST', '/api/v1/query',
          { query: 'Project 5: the greenhouse sensors report humidity 45%', mode: 'semantic', limit: 1 });
        assert.equal(semantic.body.results[0].conversation_id, ids[5]);
        const keyword = await target.api('POST', '/api/v1/search/fts', { query: 'orchids AND friday' });
        assert.equal(keyword.body.total, 7);
        assert.equal(bridge.embedCalls - callsBefore, 1, 'only the query was embedded: stored vectors moved as they were');
        for (const credential of credentials) {
          const listed = await target.api('GET', '/api/v1/conversations', undefined, { authorization: `Bearer ${credential}` });
          assert.deepEqual(listed.body.results?.map((c: { folder: string }) => c.folder), ['/projects/p1'], 'keys and tokens moved');
        }
      } finally {
        await target.stop();
      }

      const again = await copySqliteToPostgres({ dataDir: source.dataDir, url: pg.url });
      assert.deepEqual([again.copied, again.skipped, again.verified], [0, 7, true], 'running it again changes nothing');
    });
  });
}

describe('moving a SQLite store from before author names (schema 11)', () => {
  test('its messages arrive without a name', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'memsvc-schema-11-'));
    const sqlite = new BetterSqlite3(join(dataDir, DATABASE_FILE));
    migrate(sqlite, MIGRATIONS.filter((migration) => migration.version <= 11));
    const now = '2025-01-01T00:00:00.000Z';
    sqlite.prepare(`INSERT INTO conversations (id, label, created_at, updated_at, last_accessed_at, message_count)
      VALUES ('0b7c5e52-7d44-4b7e-9a43-6f1a0c2d9e11', 'old', ?, ?, ?, 1)`).run(now, now, now);
    sqlite.prepare(`INSERT INTO messages (id, conversation_id, position, role, content, timestamp)
      VALUES ('0190a1b2-c3d4-7e5f-8a9b-0c1d2e3f4a5b', '0b7c5e52-7d44-4b7e-9a43-6f1a0c2d9e11', 0, 'user', 'Melanie: hello', ?)`).run(now);
    sqlite.close();
    const pg = await PGLITE_TARGET.open();
    const pool = createPool(pg.url, 1);
    try {
      const report = await copySqliteToPostgres({ dataDir, url: pg.url });
      assert.equal(report.verified, true);
      const { rows } = await pool.query('SELECT name, content FROM messages');
      assert.deepEqual(rows, [{ name: null, content: 'Melanie: hello' }]);
    } finally {
      await pool.end();
      await pg.stop();
      removeDir(dataDir);
    }
  });
});
