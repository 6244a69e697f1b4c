import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { FakeBridge } from '../helpers/fake-bridge.js';
import { removeDir, type RunningService, startService } from '../helpers/service-harness.js';
import { waitFor } from '../helpers/wait-for.js';

const TOOLS = ['memory_store', 'memory_search', 'memory_update', 'memory_prune', 'memory_get_context', 'memory_export', 'memory_stats',
  'memory_assemble_context', 'memory_append', 'memory_summarize', 'memory_delete'];

describe('tools, REST form (POST /mcp/tools/{tool})', () => {
  let bridge: FakeBridge;
  let running: RunningService;
  const call = (tool: string, params?: unknown) => running.api('POST', `/mcp/tools/${tool}`, params);

  before(async () => {
    bridge = await new FakeBridge().start();
    running = await startService({ bridge: { url: bridge.url } });
  });
  after(async () => {
    await running.stop();
    await bridge.stop();
    removeDir(running.dataDir);
  });

  test('GET /mcp/tools lists the spec\'s seven tools and the four agent tools with JSON schemas', async () => {
    const response = await running.api('GET', '/mcp/tools');
    assert.equal(response.status, 200);
    assert.deepEqual(response.body.tools.map((t: any) => t.name), TOOLS);
    for (const tool of response.body.tools) {
      assert.equal(tool.input_schema.type, 'object', tool.name);
      assert.ok(tool.description.length > 10, tool.name);
    }
    for (const name of TOOLS.slice(7)) {
      const tool = response.body.tools.find((t: any) => t.name === name);
      assert.equal(tool.output_schema.type, 'object', name);
    }
    const store = response.body.tools.find((t: any) => t.name === 'memory_store');
    assert.deepEqual(new Set(store.input_schema.required), new Set(['label', 'messages']));
  });

  test('memory_store, memory_get_context, memory_update and memory_export work in the envelope', async () => {
    const stored = await call('memory_store', {
      label: 'standup', folder: '/work/team', messages: [{ role: 'user', content: 'the release ships on friday' }],
    });
    assert.equal(stored.status, 200);
    assert.equal(stored.body.success, true);
    assert.equal(stored.body.error, null);
    const { conversation_id: id } = stored.body.data;
    assert.equal(stored.body.data.id, id);
    assert.equal(stored.body.data.label, 'standup');
    assert.equal(stored.body.data.folder, '/work/team');

    const context = await call('memory_get_context', { conversation_id: id });
    assert.deepEqual(Object.keys(context.body.data).sort(), ['conversation_id', 'created_at', 'folder', 'importance_score',
      'label', 'message_count', 'session_count', 'status', 'updated_at', 'word_count'].sort());
    assert.equal(context.body.data.importance_score, 5, 'importance_score defaults to 5');
    assert.equal(context.body.data.word_count, 5);

    const updated = await call('memory_update', { conversation_id: id, status: 'archived', importance_score: 8 });
    assert.deepEqual(updated.body.data.updated_fields.sort(), ['importance_score', 'status']);
    const rest = await running.api('GET', `/api/v1/conversations/${id}`);
    assert.equal(rest.body.status, 'archived');
    assert.equal(rest.body.importance_score, 8);

    const json = await call('memory_export', { conversation_id: id });
    assert.equal(json.body.data.format, 'json');
    assert.equal(json.body.data.include_metadata, true);
    assert.equal(json.body.data.conversation.label, 'standup');
    assert.deepEqual(json.body.data.messages.map((m: any) => [m.role, m.content]), [['user', 'the release ships on friday']]);
    const markdown = await call('memory_export', { conversation_id: id, format: 'markdown', include_metadata: false });
    assert.match(markdown.body.data.markdown, /^# standup/);
    assert.match(markdown.body.data.markdown, /the release ships on friday/);
    assert.equal('metadata' in markdown.body.data.messages[0], false);
  });

  test('memory_search finds stored messages with the spec data fields', async () => {
    await call('memory_store', { label: 'recipes', messages: [{ role: 'user', content: 'sourdough starter needs feeding daily' }] });
    await running.waitForEmbeddings();
    const found = await call('memory_search', { query: 'sourdough starter', limit: 3 });
    assert.equal(found.body.success, true);
    assert.equal(found.body.data.query, 'sourdough starter');
    assert.equal(found.body.data.limit, 3);
    assert.ok(found.body.data.total_results >= 1);
    assert.equal(found.body.data.results[0].content, 'sourdough starter needs feeding daily');
    assert.ok(found.body.data.results[0].score > 0 && found.body.data.results[0].score <= 1);
  });

  test('memory_prune suggests and changes nothing; memory_stats totals by folder or label', async () => {
    const prune = await call('memory_prune', {});
    assert.equal(prune.body.success, true);
    assert.equal(prune.body.data.threshold_days, 30);
    assert.equal(prune.body.data.importance_threshold, 5);
    assert.equal(typeof prune.body.data.total_suggestions, 'number');
    assert.equal(typeof prune.body.data.estimated_token_savings, 'number');
    assert.ok(Array.isArray(prune.body.data.suggestions));

    const stats = await call('memory_stats', {});
    assert.equal(stats.body.data.total_conversations, 2);
    assert.ok(Array.isArray(stats.body.data.folders));
    const byLabel = await call('memory_stats', { label: 'recipes' });
    assert.equal(byLabel.body.data.total_conversations, 1);
    assert.equal(byLabel.body.data.average_importance, 5);
    assert.deepEqual(byLabel.body.data.labels, [{ label: 'recipes', count: 1, average_importance: 5 }]);
    const byFolder = await call('memory_stats', { folder: '/work' });
    assert.equal(byFolder.body.data.total_conversations, 1);
    assert.equal(byFolder.body.data.folders[0].folder, '/work/team');
  });

  test('bad parameters give success:false with a clear error, and change nothing', async () => {
    const before = (await call('memory_stats', {})).body.data.total_conversations;
    const cases: Array<[string, unknown, number, RegExp]> = [
      ['memory_store', { messages: [] }, 400, /label is required/],
      ['memory_store', { label: 'x', messages: 'hello' }, 400, /messages must be an array/],
      ['memory_store', { label: 'x', messages: [], importance_score: 11 }, 400, /importance_score/],
      ['memory_store', { label: 'x', messages: [], colour: 'red' }, 400, /colour is not a known field/],
      ['memory_store', { label: 'x', folder: 'no-slash', messages: [] }, 400, /folder/],
      ['memory_search', { limit: 5 }, 400, /query is required/],
      ['memory_update', { conversation_id: '6f1c2b8e-4d3a-4e5f-9a7b-0c1d2e3f4a5b', label: 'x' }, 404, /Conversation not found/],
      ['memory_update', { conversation_id: 'nope', status: 'deleted' }, 400, /status must be one of/],
      ['memory_get_context', {}, 400, /conversation_id is required/],
      ['memory_export', { conversation_id: 'nope' }, 404, /Conversation not found: nope/],
      ['memory_stats', { folder: '/a', label: 'b' }, 400, /not both/],
      ['memory_prune', { threshold_days: -1 }, 400, /threshold_days/],
      ['memory_prune', [], 400, /JSON object/],
    ];
    for (const [tool, params, status, message] of cases) {
      const response = await call(tool, params);
      assert.equal(response.status, status, `${tool} ${JSON.stringify(params)}: ${JSON.stringify(response.body)}`);
      assert.equal(response.body.success, false);
      assert.equal(response.body.data, null);
      assert.match(response.body.error.message, message, tool);
      assert.equal(typeof response.body.error.code, 'string');
    }
    assert.equal((await call('memory_stats', {})).body.data.total_conversations, before);
    // Control: a valid memory_store is counted by the same probe.
    assert.equal((await call('memory_store', { label: 'x', messages: [] })).body.success, true);
    assert.equal((await call('memory_stats', {})).body.data.total_conversations, before + 1);
  });

  test('an unknown tool is a 404 envelope; tools need the API key', async () => {
    const unknown = await call('memory_forget', {});
    assert.equal(unknown.status, 404);
    assert.equal(unknown.body.success, false);
    assert.match(unknown.body.error.message, /Unknown tool: memory_forget/);
    const anonymous = await fetch(`${running.baseUrl}/mcp/tools/memory_stats`, {
      method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}',
    });
    assert.equal(anonymous.status, 401);
    assert.equal((await fetch(`${running.baseUrl}/mcp/tools`)).status, 401);
  });
});
