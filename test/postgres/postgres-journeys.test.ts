import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { POSTGRES_TARGETS, type PostgresDatabase } from '../helpers/postgres-servers.js';
import { removeDir, type RunningService, startService } from '../helpers/service-harness.js';

type Api = (method: string, path: string, body?: unknown) => Promise<{ status: number; body: any }>;

/**
 * The journeys that matter, once more on the postgres driver (Postgres 18 +
 * pgvector in PGlite) with the real bridge and its builtin offline engine.
 */
for (const target of POSTGRES_TARGETS) {
  describe(`HTTP journeys on the postgres driver (${target.name})`, () => {
    let pg: PostgresDatabase;
    let stack: RunningService;
    let dataDir: string;
    let api: Api;
    const ids: Record<string, string> = {};

    before(async () => {
      pg = await target.open();
      dataDir = mkdtempSync(join(tmpdir(), 'memsvc-pg-journeys-'));
      stack = await startService({ bridge: 'builtin', dataDir, overrides: { storage: { driver: 'postgres', url: pg.url, pool_size: 4 } } });
      api = stack.api as Api;
      const trip = await api('POST', '/api/v1/conversations', { label: 'travel', folder: '/personal/travel', importance_score: 7, messages: [
        { role: 'user', content: 'I am planning a trip to Lisbon next spring with my sister.', timestamp: '2026-03-01T10:00:00Z' },
        { role: 'assistant', content: 'Lisbon is lovely in April; book the tram tour early.', timestamp: '2026-03-01T10:01:00Z' },
      ] });
      assert.equal(trip.status, 201);
      ids.trip = trip.body.id;
      const db = await api('POST', '/api/v1/conversations', { label: 'backend', folder: '/work/backend', messages: [
        { role: 'user', content: 'Our postgres database migration failed with a deadlock.', timestamp: '2026-05-01T09:00:00Z' },
      ] });
      ids.db = db.body.id;
      const appended = await api('POST', `/api/v1/conversations/${ids.db}/messages`, { messages: [
        { role: 'assistant', content: 'Run the migration in smaller batches and add the index first.', timestamp: '2026-05-01T09:01:00Z' },
      ] });
      assert.equal(appended.status, 201);
      assert.equal(appended.body.message_count, 2);
      const pets = await api('POST', '/api/v1/conversations', { label: 'pets', folder: '/personal', messages: [
        { role: 'user', content: 'My dog Rex loves long walks in the park every morning.', timestamp: '2026-07-01T08:00:00Z' },
      ] });
      ids.pets = pets.body.id;
      await stack.waitForEmbeddings();
    });

    after(async () => {
      await stack?.stop();
      await pg?.stop();
      removeDir(dataDir);
    });

    test('health names the driver; a replica keeps no database in its data dir, only its graph of the vectors', async () => {
      const health = await api('GET', '/health');
      assert.equal(health.body.checks.database.driver, 'postgres');
      const { readdirSync } = await import('node:fs');
      assert.ok(!readdirSync(dataDir).includes('memsvc.db'), readdirSync(dataDir).join(','));
      // storage.vector_index local (the default): one graph per database, named by the database's store id.
      assert.deepEqual(readdirSync(join(dataDir, 'vectors')).map((name) => name.replace(/[0-9a-f-]{36}$/, '<id>')), ['postgres-<id>']);
    });

    test('all three search modes and full text find the right conversation', async () => {
      const semantic = await api('POST', '/api/v1/query', { query: 'vacation in Portugal', mode: 'semantic', limit: 3 });
      assert.equal(semantic.status, 200);
      assert.equal(semantic.body.results[0].conversation_id, ids.trip);
      const puppy = await api('POST', '/api/v1/query', { query: 'puppy exercise', mode: 'semantic', limit: 1 });
      assert.equal(puppy.body.results[0].conversation_id, ids.pets);
      for (const mode of ['hybrid', 'keyword']) {
        const response = await api('POST', '/api/v1/query', { query: 'database migration deadlock', mode, limit: 5 });
        assert.equal(response.status, 200, mode);
        assert.equal(response.body.results[0].conversation_id, ids.db, mode);
        assert.ok(response.body.results.every((hit: { score: number }) => hit.score >= 0 && hit.score <= 1));
      }
      const filtered = await api('POST', '/api/v1/query', { query: 'Lisbon trip', filters: { folder: '/work' }, limit: 5 });
      assert.ok(filtered.body.results.every((hit: { folder: string }) => hit.folder.startsWith('/work')));
      const fts = await api('POST', '/api/v1/search/fts', { query: '"smaller batches" OR tram*' });
      assert.equal(fts.status, 200);
      assert.deepEqual(fts.body.results.map((hit: { conversation_id: string }) => hit.conversation_id).sort(), [ids.db, ids.trip].sort());
      const bad = await api('POST', '/api/v1/search/fts', { query: 'content:(deadlock' });
      assert.equal(bad.status, 400);
      assert.equal(bad.body.code, 'INVALID_QUERY');
    });

    test('context assembly cites what it recalls', async () => {
      const context = await api('POST', '/api/v1/context/assemble', { query: 'What went wrong with the database migration?', max_tokens: 500 });
      assert.equal(context.status, 200, JSON.stringify(context.body));
      assert.ok(JSON.stringify(context.body).includes('deadlock'));
    });

    test('export, then import into a second store, gives the same conversations', async () => {
      const exported = await fetch(`${stack.baseUrl}/api/v1/export`, {
        method: 'POST', headers: { authorization: `Bearer ${stack.apiKey}`, 'content-type': 'application/json' },
        body: JSON.stringify({ format: 'jsonl' }),
      });
      assert.equal(exported.status, 200);
      const lines = (await exported.text()).trim().split('\n');
      assert.equal(lines.length, 3);
      const replaced = await fetch(`${stack.baseUrl}/api/v1/import?on_conflict=replace`, {
        method: 'POST', headers: { authorization: `Bearer ${stack.apiKey}`, 'content-type': 'application/x-ndjson' }, body: lines.join('\n'),
      });
      assert.equal(replaced.status, 200, await replaced.clone().text());
      assert.equal(((await replaced.json()) as { replaced: number }).replaced, 3);
      const copy = await api('GET', `/api/v1/conversations/${ids.trip}?include=messages`);
      assert.equal(copy.body.messages.length, 2);
      await stack.waitForEmbeddings();
      const found = await api('POST', '/api/v1/query', { query: 'Lisbon tram tour', mode: 'hybrid', limit: 1 });
      assert.equal(found.body.results[0].conversation_id, ids.trip, 'imported messages are embedded and searchable');
    });

    test('memory_prune takes a fractional importance threshold (a number, as the spec says)', async () => {
      // threshold_days 0: every conversation is idle; importance 5 is at or below 5.5, 7 is above.
      const prune = await api('POST', '/mcp/tools/memory_prune', { threshold_days: 0, importance_threshold: 5.5 });
      assert.equal(prune.status, 200, JSON.stringify(prune.body));
      assert.equal(prune.body.data.importance_threshold, 5.5);
      const recommendation = Object.fromEntries(prune.body.data.suggestions.map((s: any) => [s.conversation_label, s.recommendation]));
      assert.equal(recommendation.backend, 'archive');
      assert.equal(recommendation.travel, 'keep');
    });

    test('a rebuild while new messages are being embedded answers, and every message ends embedded once', async () => {
      const late = await Promise.all(Array.from({ length: 6 }, (_, i) => api('POST', '/api/v1/conversations', { label: `late ${i}`,
        folder: '/late', messages: [{ role: 'user', content: `A late note ${i} about the ferry timetable` }] })));
      assert.ok(late.every((created) => created.status === 201));
      const rebuild = await api('POST', '/api/v1/rebuild-embeddings');
      assert.ok([200, 202].includes(rebuild.status), JSON.stringify(rebuild.body));
      await stack.waitForEmbeddings();
      const status = await api('GET', '/api/v1/embeddings/status');
      assert.deepEqual([status.body.pending, status.body.done, status.body.failed], [0, 11, 0]);
      for (const created of late) assert.equal((await api('DELETE', `/api/v1/conversations/${created.body.id}`)).status, 200);
    });

    test('rebuild re-embeds every message and search works after it', async () => {
      const started = await api('POST', '/api/v1/rebuild-embeddings');
      assert.ok([200, 202].includes(started.status), JSON.stringify(started.body));
      await stack.waitForEmbeddings();
      const status = await api('GET', '/api/v1/embeddings/status');
      assert.deepEqual([status.body.pending, status.body.done, status.body.failed], [0, 5, 0]);
      const semantic = await api('POST', '/api/v1/query', { query: 'vacation in Portugal', mode: 'semantic', limit: 1 });
      assert.equal(semantic.body.results[0].conversation_id, ids.trip);
    });

    test('delete removes the conversation from every search', async () => {
      assert.equal((await api('DELETE', `/api/v1/conversations/${ids.pets}`)).status, 200);
      const semantic = await api('POST', '/api/v1/query', { query: 'puppy exercise', mode: 'semantic', limit: 10 });
      assert.ok(semantic.body.results.every((hit: { conversation_id: string }) => hit.conversation_id !== ids.pets));
    });
  });
}
