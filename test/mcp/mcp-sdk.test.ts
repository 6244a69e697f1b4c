import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { FakeBridge } from '../helpers/fake-bridge.js';
import { removeDir, runController, TEST_API_KEY, type RunningController } from '../helpers/controller-harness.js';

const CLI = fileURLToPath(new URL('../../src/cli.ts', import.meta.url));
const TOOL_COUNT = 7;

const structured = (result: Awaited<ReturnType<Client['callTool']>>) => result.structuredContent as Record<string, any>;

describe('MCP server through the official SDK client', () => {
  let bridge: FakeBridge;
  let running: RunningController;

  before(async () => {
    bridge = await new FakeBridge().start();
    running = await runController({ bridgeUrl: bridge.url });
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
      args: ['--import', 'tsx', CLI, 'mcp'],
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
});
