import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { FakeBridge, unusedPort } from '../helpers/fake-bridge.js';
import { removeDir, type RunningService, startService, TEST_API_KEY } from '../helpers/service-harness.js';

const CLI = fileURLToPath(new URL('../../src/cli.ts', import.meta.url));
const TOOL_COUNT = 11;
const TSX = import.meta.resolve('tsx');

const structured = (result: Awaited<ReturnType<Client['callTool']>>) => result.structuredContent as Record<string, any>;

describe('MCP server through the official SDK client', () => {
  let bridge: FakeBridge;
  let running: RunningService;

  before(async () => {
    bridge = await new FakeBridge().start();
    running = await startService({ bridge: { url: bridge.url } });
  });
  after(async () => {
    await running.stop();
    await bridge.stop();
    removeDir(running.dataDir);
  });

  test('Streamable HTTP at /mcp with a Bearer key: list and call tools', async () => {
    const client = new Client({ name: 'memsvc-test', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${running.baseUrl}/mcp`), {
      requestInit: { headers: { authorization: `Bearer ${TEST_API_KEY}` } },
    }));
    try {
      const { tools } = await client.listTools();
      assert.equal(tools.length, TOOL_COUNT);
      const store = tools.find((tool) => tool.name === 'memory_store')!;
      assert.equal(store.inputSchema.type, 'object');
      assert.ok('messages' in (store.inputSchema.properties ?? {}));

      const stored = await client.callTool({ name: 'memory_store', arguments: {
        label: 'via mcp', folder: '/agents', messages: [{ role: 'user', content: 'remember the blue notebook' }],
      } });
      assert.equal(stored.isError, undefined);
      const id = structured(stored).conversation_id;
      const context = await client.callTool({ name: 'memory_get_context', arguments: { conversation_id: id } });
      assert.equal(structured(context).label, 'via mcp');
      assert.equal(structured(context).folder, '/agents');

      const bad = await client.callTool({ name: 'memory_get_context', arguments: {} });
      assert.equal(bad.isError, true);
      assert.match(JSON.stringify(bad.content), /conversation_id is required/);
    } finally {
      await client.close();
    }
  });

  test('agent tools: assemble context, append, summarize and delete, each with an output schema the client checks', async () => {
    const client = new Client({ name: 'memsvc-test', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${running.baseUrl}/mcp`), {
      requestInit: { headers: { authorization: `Bearer ${TEST_API_KEY}` } },
    }));
    try {
      const { tools } = await client.listTools();
      for (const name of ['memory_assemble_context', 'memory_append', 'memory_summarize', 'memory_delete']) {
        const tool = tools.find((t) => t.name === name);
        assert.equal(tool?.outputSchema?.type, 'object', name);
      }
      const stored = await client.callTool({ name: 'memory_store', arguments: {
        label: 'greenhouse', folder: '/garden', messages: [{ role: 'user', content: 'The greenhouse tomatoes need watering every second day' }],
      } });
      const id = structured(stored).conversation_id as string;
      const appended = await client.callTool({ name: 'memory_append', arguments: {
        conversation_id: id, messages: [{ role: 'assistant', content: 'Noted: the tomatoes in the greenhouse, every second day' }],
      } });
      assert.equal(appended.isError, undefined, JSON.stringify(appended.content));
      assert.equal(structured(appended).message_count, 2);
      assert.equal(structured(appended).messages.length, 1);
      assert.equal(structured(appended).messages[0].role, 'assistant');

      const context = await client.callTool({ name: 'memory_assemble_context', arguments: { query: 'how often to water the tomatoes?', context_budget: 500 } });
      assert.equal(context.isError, undefined, JSON.stringify(context.content));
      assert.match(structured(context).context, /every second day/);
      assert.ok(structured(context).conversation_ids.includes(id));

      const summary = await client.callTool({ name: 'memory_summarize', arguments: { conversation_id: id, level: 'daily' } });
      assert.equal(summary.isError, undefined, JSON.stringify(summary.content));
      assert.equal(structured(summary).conversation_id, id);
      assert.equal(structured(summary).level, 'daily');

      const deleted = await client.callTool({ name: 'memory_delete', arguments: { conversation_id: id } });
      assert.deepEqual(structured(deleted), { conversation_id: id, deleted: true });
      assert.equal((await running.api('GET', `/api/v1/conversations/${id}`)).status, 404);
      const again = await client.callTool({ name: 'memory_delete', arguments: { conversation_id: id } });
      assert.equal(again.isError, true);
      assert.match(JSON.stringify(again.content), /not found/i);
    } finally {
      await client.close();
    }
  });

  test('memory_store and memory_append take author names; memory_append, memory_search and memory_export return them', async () => {
    const client = new Client({ name: 'memsvc-test', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${running.baseUrl}/mcp`), {
      requestInit: { headers: { authorization: `Bearer ${TEST_API_KEY}` } },
    }));
    try {
      const stored = await client.callTool({ name: 'memory_store', arguments: {
        label: 'book club', folder: '/club', messages: [{ role: 'user', name: 'Melanie', content: 'I finished the lighthouse novel' }],
      } });
      assert.equal(stored.isError, undefined, JSON.stringify(stored.content));
      const id = structured(stored).conversation_id as string;
      const appended = await client.callTool({ name: 'memory_append', arguments: {
        conversation_id: id, messages: [{ role: 'user', name: 'Caroline', content: 'Which lighthouse was it?' }, { role: 'assistant', content: 'Noted' }],
      } });
      assert.equal(appended.isError, undefined, JSON.stringify(appended.content));
      assert.deepEqual(structured(appended).messages.map((m: { name: string | null }) => m.name), ['Caroline', null]);

      const found = await client.callTool({ name: 'memory_search', arguments: { query: 'novel', mode: 'keyword', filters: { folder: '/club' } } });
      assert.equal(found.isError, undefined, JSON.stringify(found.content));
      assert.equal(structured(found).results[0].metadata.name, 'Melanie');
      const exported = await client.callTool({ name: 'memory_export', arguments: { conversation_id: id } });
      assert.deepEqual(structured(exported).messages.map((m: { name: string | null }) => m.name), ['Melanie', 'Caroline', null]);

      const bad = await client.callTool({ name: 'memory_append', arguments: {
        conversation_id: id, messages: [{ role: 'user', name: ' ', content: 'blank name' }],
      } });
      assert.equal(bad.isError, true);
      assert.match(JSON.stringify(bad.content), /messages\[0\]\.name must not be empty/);
    } finally {
      await client.close();
    }
  });

  test('every tool lists an output schema, and every call answers structuredContent that the SDK client checked against it', async () => {
    const client = new Client({ name: 'memsvc-test', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${running.baseUrl}/mcp`), {
      requestInit: { headers: { authorization: `Bearer ${TEST_API_KEY}` } },
    }));
    try {
      const { tools } = await client.listTools();
      for (const tool of tools) assert.equal(tool.outputSchema?.type, 'object', tool.name);
      const stored = structured(await client.callTool({ name: 'memory_store', arguments: {
        label: 'structured', folder: '/out', messages: [{ role: 'user', content: 'the orchard needs pruning in March' }],
      } }));
      const id = stored.conversation_id as string;
      // The client validates structuredContent against the listed outputSchema and throws when it does not fit,
      // so each successful call below is a check of one tool's answer against its schema.
      const calls: Array<[string, Record<string, unknown>]> = [
        ['memory_search', { query: 'orchard pruning', mode: 'keyword' }],
        ['memory_update', { conversation_id: id, importance_score: 7 }],
        ['memory_prune', { threshold_days: 0, importance_threshold: 10 }],
        ['memory_get_context', { conversation_id: id }],
        ['memory_export', { conversation_id: id, format: 'markdown' }],
        ['memory_stats', { folder: '/out' }],
        ['memory_stats', { label: 'structured' }],
        ['memory_assemble_context', { query: 'when to prune the orchard?' }],
        ['memory_append', { conversation_id: id, messages: [{ role: 'assistant', content: 'March it is' }] }],
        ['memory_summarize', { conversation_id: id, level: 'weekly' }],
        ['memory_delete', { conversation_id: id }],
      ];
      for (const [name, args] of calls) {
        const result = await client.callTool({ name, arguments: args });
        assert.equal(result.isError, undefined, `${name}: ${JSON.stringify(result.content)}`);
        assert.ok(result.structuredContent, name);
        assert.deepEqual(JSON.parse((result.content as Array<{ text: string }>)[0]!.text), result.structuredContent, name);
      }
      assert.equal(stored.importance_score, 5);
    } finally {
      await client.close();
    }
  });

  test('/mcp is stateless: GET and DELETE are 405 with Allow: POST', async () => {
    for (const method of ['GET', 'DELETE']) {
      const response = await fetch(`${running.baseUrl}/mcp`, { method, headers: { authorization: `Bearer ${TEST_API_KEY}` } });
      assert.equal(response.status, 405, method);
      assert.equal(response.headers.get('allow'), 'POST');
      assert.equal((await response.json() as { code: string }).code, 'METHOD_NOT_ALLOWED');
    }
  });

  test('/mcp refuses a client without the key', async () => {
    const client = new Client({ name: 'memsvc-test', version: '1.0.0' });
    await assert.rejects(client.connect(new StreamableHTTPClientTransport(new URL(`${running.baseUrl}/mcp`))), /401|Unauthorized|Invalid or missing API key/);
  });

  test('stdio (`memsvc mcp`) forwards to the running service', async () => {
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: ['--import', TSX, CLI, 'mcp'],
      env: { ...process.env as Record<string, string>, MEMSVC_MCP_SERVER_URL: running.baseUrl, MEMSVC_API_KEY: TEST_API_KEY },
      stderr: 'pipe',
    });
    const client = new Client({ name: 'memsvc-test', version: '1.0.0' });
    await client.connect(transport);
    try {
      const { tools } = await client.listTools();
      assert.equal(tools.length, TOOL_COUNT);
      const stored = await client.callTool({ name: 'memory_store', arguments: {
        label: 'via stdio', messages: [{ role: 'user', content: 'desktop client memory' }],
      } });
      const id = structured(stored).conversation_id;
      const rest = await running.api('GET', `/api/v1/conversations/${id}`);
      assert.equal(rest.status, 200);
      assert.equal(rest.body.label, 'via stdio');
      const stats = await client.callTool({ name: 'memory_stats', arguments: { folder: '/a', label: 'b' } });
      assert.equal(stats.isError, true);
      assert.match(JSON.stringify(stats.content), /not both/);
    } finally {
      await client.close();
    }
  });

  test('stdio with no service running: `memsvc mcp` starts one in-process from the standard data dir, and stops with the client', async () => {
    const home = mkdtempSync(join(tmpdir(), 'memsvc-mcp-home-'));
    const env: Record<string, string> = {};
    for (const [name, value] of Object.entries(process.env)) if (!name.startsWith('MEMSVC_') && value !== undefined) env[name] = value;
    const port = await unusedPort();
    Object.assign(env, {
      XDG_DATA_HOME: join(home, 'data'), XDG_CONFIG_HOME: join(home, 'config'), MEMSVC_PORT: String(port),
      MEMSVC_BRIDGE_START: 'false', MEMSVC_BRIDGE_URL: `http://127.0.0.1:${await unusedPort()}`,
    });
    const transport = new StdioClientTransport({ command: process.execPath, args: ['--import', TSX, CLI, 'mcp'], env, cwd: home, stderr: 'pipe' });
    const client = new Client({ name: 'memsvc-test', version: '1.0.0' });
    try {
      await client.connect(transport);
      const { tools } = await client.listTools();
      assert.equal(tools.length, TOOL_COUNT);
      const stored = await client.callTool({ name: 'memory_store', arguments: {
        label: 'first run', messages: [{ role: 'user', content: 'the spare key is under the flower pot' }],
      } });
      assert.equal(stored.isError, undefined, JSON.stringify(stored.content));
      const found = await client.callTool({ name: 'memory_search', arguments: { query: 'spare key flower pot', mode: 'keyword' } });
      assert.equal(structured(found).results[0].label, 'first run');
      // The standard data dir holds the store and the generated key; the service answers other clients too.
      const key = readFileSync(join(home, 'data', 'memsvc', 'api_key'), 'utf8').trim();
      const listed = await fetch(`http://127.0.0.1:${port}/api/v1/conversations`, { headers: { authorization: `Bearer ${key}` } });
      assert.equal(((await listed.json()) as { total: number }).total, 1);
    } finally {
      await client.close();
      removeDir(home);
    }
  });
});
