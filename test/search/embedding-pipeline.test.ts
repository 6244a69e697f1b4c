import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { FakeBridge, unusedPort } from '../helpers/fake-bridge.js';
import { removeDir, type RunningService, startService } from '../helpers/service-harness.js';
import { waitFor } from '../helpers/wait-for.js';

const conversation = (label: string, ...contents: string[]) => ({
  label, folder: '/tests', messages: contents.map((content) => ({ role: 'user', content })),
});

const status = async (running: RunningService) => (await running.api('GET', '/api/v1/embeddings/status')).body;
const allEmbedded = (running: RunningService) =>
  waitFor(() => status(running), { what: 'embeddings status: s.searchable && s.done > 0', until: (s) => s.searchable && s.done > 0 });

describe('embedding pipeline', () => {
  let bridge: FakeBridge;
  before(async () => { bridge = await new FakeBridge().start(); });
  after(async () => { await bridge.stop(); });

  test('stored messages are embedded in the background and their state is visible', async () => {
    const running = await startService({ bridge: { url: bridge.url } });
    try {
      const created = await running.api('POST', '/api/v1/conversations', conversation('a', 'alpha beta', 'gamma delta'));
      assert.equal(created.status, 201);
      await allEmbedded(running);
      const messages = await running.api('GET', `/api/v1/conversations/${created.body.id}/messages`);
      assert.deepEqual(messages.body.results.map((m: any) => m.embedding_status), ['done', 'done']);
      assert.ok(messages.body.results.every((m: any) => typeof m.embedding_id === 'string'));
      const stats = await running.api('GET', '/stats');
      assert.equal(stats.body.embeddings_count, 2);
      const s = await status(running);
      assert.equal(s.model, bridge.model);
      assert.equal(s.dimension, bridge.dimension);
      assert.equal(s.indexed, 2);
    } finally {
      await running.stop();
    }
  });

  test('while the bridge is down work waits, health says so, and nothing is lost across a restart', async () => {
    const port = await unusedPort();
    let running = await startService({ bridge: { url: `http://127.0.0.1:${port}` } });
    const late = new FakeBridge();
    try {
      const created = await running.api('POST', '/api/v1/conversations', conversation('offline', 'written while the bridge is down'));
      assert.equal(created.status, 201);
      const tried = await waitFor(() => status(running), { what: 'the worker to have tried the bridge and failed', until: (s) => s.worker.consecutiveFailures > 0 });
      assert.match(tried.worker.lastError, /./, 'the worker tried the bridge and failed');
      assert.equal(tried.pending, 1);
      const health = await running.api('GET', '/health');
      assert.equal(health.status, 503);
      assert.equal(health.body.status, 'unhealthy');
      assert.equal(health.body.checks.llm_bridge.status, 'error');
      assert.match(health.body.checks.llm_bridge.error, /unreachable/);
      assert.equal(health.body.checks.database.status, 'ok');

      // Restart the controller before the bridge comes back: the pending work survives.
      await running.stop({ keepData: true });
      await late.start(port);
      running = await startService({ bridge: { url: late.url }, dataDir: running.dataDir });
      await allEmbedded(running);
      assert.equal((await status(running)).done, 1);
      assert.equal((await running.api('GET', '/health')).status, 200);
    } finally {
      await running.stop();
      await late.stop();
      removeDir(running.dataDir);
    }
  });

  test('the vector index is reloaded on restart and rebuilt from SQLite when its file is gone', async () => {
    let running = await startService({ bridge: { url: bridge.url } });
    try {
      await running.api('POST', '/api/v1/conversations', conversation('kept', 'sourdough bread recipe', 'kayak trip on the river'));
      await allEmbedded(running);
      const search = () => running.api('POST', '/api/v1/query', { query: 'sourdough bread', mode: 'semantic', limit: 1 });
      assert.equal((await search()).body.results[0].content, 'sourdough bread recipe');

      await running.stop({ keepData: true });
      running = await startService({ bridge: { url: bridge.url }, dataDir: running.dataDir });
      let restarted = await waitFor(() => status(running), { what: 'embeddings status: s.index_catch_up.state === \'ready\'', until: (s) => s.index_catch_up.state === 'ready' });
      assert.equal(restarted.indexed, 2);
      assert.equal(restarted.index_catch_up.loaded_saved, true);
      assert.equal(restarted.index_catch_up.added, 0, 'the saved graph held every vector: nothing re-added');
      assert.equal((await search()).body.results[0].content, 'sourdough bread recipe');
      assert.equal((await search()).body.partial, undefined);

      await running.stop({ keepData: true });
      rmSync(join(running.dataDir, 'vectors'), { recursive: true, force: true });
      running = await startService({ bridge: { url: bridge.url }, dataDir: running.dataDir });
      restarted = await waitFor(() => status(running), { what: 'embeddings status: s.index_catch_up.state === \'ready\'', until: (s) => s.index_catch_up.state === 'ready' });
      assert.equal(restarted.indexed, 2);
      assert.equal(restarted.index_catch_up.loaded_saved, false);
      assert.equal(restarted.index_catch_up.added, 2, 'the missing graph is refilled from the stored vectors');
      assert.equal((await search()).body.results[0].content, 'sourdough bread recipe');
    } finally {
      await running.stop();
      removeDir(running.dataDir);
    }
  });

  test('a model change is detected, reported and fixed by a rebuild', async () => {
    const switching = await new FakeBridge().start();
    const running = await startService({ bridge: { url: switching.url } });
    try {
      await running.api('POST', '/api/v1/conversations', conversation('before', 'first message about gardening'));
      await allEmbedded(running);

      switching.model = 'fake-embedder-v2';
      await running.api('POST', '/api/v1/conversations', conversation('after', 'second message about tomatoes'));
      const mismatched = await waitFor(() => status(running), { what: 'embeddings status: s.model_mismatch !== null', until: (s) => s.model_mismatch !== null });
      assert.deepEqual(mismatched.model_mismatch, { recorded: 'fake-embedder-v1', current: 'fake-embedder-v2' });
      assert.equal(mismatched.pending, 1, 'vectors of the new model are held back');

      const health = await running.api('GET', '/health');
      assert.equal(health.status, 503);
      assert.match(health.body.checks.vector_store.error, /rebuild-embeddings/);
      const semantic = await running.api('POST', '/api/v1/query', { query: 'gardening', mode: 'semantic' });
      assert.equal(semantic.status, 503);
      assert.match(semantic.body.error, /rebuild-embeddings/);
      const hybrid = await running.api('POST', '/api/v1/query', { query: 'gardening' });
      assert.equal(hybrid.status, 200);
      assert.equal(hybrid.body.mode, 'keyword', 'hybrid degrades to full-text instead of failing');

      const rebuild = await running.api('POST', '/api/v1/rebuild-embeddings');
      assert.equal(rebuild.status, 202);
      assert.equal(rebuild.text, '');
      const rebuilt = await waitFor(() => status(running), { what: 'embeddings status: s.searchable && s.done === 2', until: (s) => s.searchable && s.done === 2 });
      assert.equal(rebuilt.model, 'fake-embedder-v2');
      assert.equal(rebuilt.model_mismatch, null);
      assert.equal(rebuilt.rebuild.total, 2);
      assert.equal(rebuilt.rebuild.complete, true);
      assert.equal((await running.api('GET', '/stats')).body.embeddings.rebuild.done, 2);
      // /health is cached for server.health_cache_ms: the unhealthy report above may still be served briefly.
      await waitFor(() => running.api('GET', '/health'), { what: '/health healthy again after the rebuild', until: (r) => r.status === 200 });
      const after = await running.api('POST', '/api/v1/query', { query: 'tomatoes', mode: 'semantic', limit: 1 });
      assert.equal(after.body.results[0].content, 'second message about tomatoes');
    } finally {
      await running.stop();
      await switching.stop();
      removeDir(running.dataDir);
    }
  });

  test('deleting a conversation removes its vectors from the store and the index', async () => {
    const running = await startService({ bridge: { url: bridge.url } });
    try {
      const keep = await running.api('POST', '/api/v1/conversations', conversation('keep', 'violin lessons on monday'));
      const drop = await running.api('POST', '/api/v1/conversations', conversation('drop', 'violin concert tickets', 'violin strings'));
      await waitFor(() => status(running), { what: 'embeddings status: s.done === 3 && s.searchable', until: (s) => s.done === 3 && s.searchable });
      assert.equal((await running.api('DELETE', `/api/v1/conversations/${drop.body.id}`)).status, 200);
      assert.equal((await status(running)).done, 1);
      await waitFor(() => status(running), { what: 'embeddings status: s.indexed === 1', until: (s) => s.indexed === 1 });
      assert.equal((await running.api('GET', '/stats')).body.embeddings_count, 1);
      const found = await running.api('POST', '/api/v1/query', { query: 'violin', mode: 'semantic', limit: 10 });
      assert.deepEqual(found.body.results.map((r: any) => r.conversation_id), [keep.body.id]);
      const fts = await running.api('POST', '/api/v1/search/fts', { query: 'violin' });
      assert.equal(fts.body.total, 1, 'full-text index forgets deleted messages too');
    } finally {
      await running.stop();
      removeDir(running.dataDir);
    }
  });

  test('a message the bridge refuses is marked failed without blocking the others', async () => {
    const picky = await new FakeBridge().start();
    picky.rejectMarker = 'POISON';
    const running = await startService({ bridge: { url: picky.url } });
    try {
      const created = await running.api('POST', '/api/v1/conversations',
        conversation('mixed', 'a fine message', 'POISON pill', 'another fine one'));
      const final = await waitFor(() => status(running), { what: 'embeddings status: s.pending === 0', until: (s) => s.pending === 0 });
      assert.equal(final.done, 2);
      assert.equal(final.failed, 1);
      const messages = await running.api('GET', `/api/v1/conversations/${created.body.id}/messages`);
      assert.deepEqual(messages.body.results.map((m: any) => m.embedding_status), ['done', 'failed', 'done']);
    } finally {
      await running.stop();
      await picky.stop();
      removeDir(running.dataDir);
    }
  });
});
