import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { findJsonBoundsIssue, MAX_JSON_DEPTH } from '../../src/domain/json-bounds.js';
import { ToolInvoker } from '../../src/mcp/tool-invoker.js';
import { type RunningService, startService } from '../helpers/service-harness.js';
import { createConversation } from '../helpers/fixtures.js';

/** `{"a":{"a":...}}` nested `depth` deep, as text (building it as an object and stringifying would itself overflow). */
const nestedObjectText = (depth: number) => `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`;
const nestedArrayText = (depth: number) => `${'['.repeat(depth)}${']'.repeat(depth)}`;

describe('hostile input gets a 400 naming the field, never a 500', () => {
  let server: RunningService;
  before(async () => { server = await startService(); });
  after(() => server.stop());

  const post = (path: string, body: string, contentType = 'application/json') => server.raw('POST', path, {
    body, headers: { authorization: `Bearer ${server.apiKey}`, 'content-type': contentType },
  });

  it('metadata nested 6,000 deep on create, append and import', async () => {
    const metadata = nestedObjectText(6000);
    const created = await post('/api/v1/conversations',
      `{"label":"deep","messages":[{"role":"user","content":"hi","metadata":${metadata}}]}`);
    assert.equal(created.status, 400, created.text);
    assert.equal(created.body.code, 'VALIDATION_ERROR');
    assert.match(created.body.error, /^messages\[0\]\.metadata/);

    const id = await createConversation(server);
    const appended = await post(`/api/v1/conversations/${id}/messages`,
      `{"messages":[{"role":"user","content":"hi","metadata":${metadata}}]}`);
    assert.equal(appended.status, 400, appended.text);
    assert.match(appended.body.error, /^messages\[0\]\.metadata/);

    const line = `{"label":"deep","messages":[{"role":"user","content":"hi","metadata":${metadata}}]}`;
    const imported = await post('/api/v1/import', `{"conversations":[${line}]}`);
    assert.equal(imported.status, 400, imported.text);
    assert.match(imported.body.error, /conversations\[0\]\.messages/);
    const importedLines = await post('/api/v1/import', `${line}\n`, 'application/x-ndjson');
    assert.equal(importedLines.status, 400, importedLines.text);
    assert.match(importedLines.body.error, /metadata/);
  });

  it('MCP tool parameters nested 2,000 deep, over REST and JSON-RPC', async () => {
    const rest = await post('/mcp/tools/memory_search', `{"query":"x","filters":${nestedArrayText(2000)}}`);
    assert.equal(rest.status, 400, rest.text);
    assert.match(rest.body.error, /^filters\b.*nested deeper/);

    const rpc = await server.raw('POST', '/mcp', {
      headers: { authorization: `Bearer ${server.apiKey}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"memory_search","arguments":{"query":${nestedArrayText(2000)}}}}`,
    });
    assert.ok(rpc.status < 500, rpc.text);
    assert.doesNotMatch(rpc.text, /-32603/);
  });

  it('activity days of Infinity, 1e309 and -Infinity', async () => {
    for (const days of ['Infinity', '1e309', '-Infinity']) {
      const response = await server.api('GET', `/api/v1/activity/messages-per-day?days=${days}`);
      assert.equal(response.status, 400, `${days}: ${response.text}`);
      assert.equal(response.body.code, 'VALIDATION_ERROR');
      assert.match(response.body.error, /days/);
    }
  });

  it('a number too large for a double in a body is refused by name', async () => {
    const response = await post('/api/v1/search', '{"query":"x","limit":1e309}');
    assert.equal(response.status, 400, response.text);
    assert.match(response.body.error, /limit must be a finite number/);
  });
});

describe('JSON bounds check', () => {
  it('the tool invoker refuses deep parameters handed to it in-process, before copying them', async () => {
    let ran = false;
    const invoker = new ToolInvoker([{ name: 'echo', description: 'echo', inputSchema: { type: 'object' }, run: async () => { ran = true; return {}; } } as never],
      { error: () => undefined } as never);
    let deep: unknown = 1;
    for (let i = 0; i < 100_000; i++) deep = { a: deep };
    const outcome = await invoker.invoke('echo', { deep });
    assert.equal(outcome.status, 400);
    assert.equal(outcome.envelope.success, false);
    assert.equal(ran, false);
  });

  it('walks any depth without recursion', () => {
    let value: unknown = 1;
    for (let i = 0; i < 1_000_000; i++) value = [value];
    assert.deepEqual(findJsonBoundsIssue({ metadata: value }, 'messages[0]'),
      { field: 'messages[0].metadata[0][0]', problem: 'too_deep' });
  });

  it('accepts a document exactly at the limit', () => {
    let value: unknown = 1;
    for (let i = 0; i < MAX_JSON_DEPTH; i++) value = { a: value };
    assert.equal(findJsonBoundsIssue(value, ''), null);
    assert.equal(findJsonBoundsIssue({ a: value }, '')?.problem, 'too_deep');
  });
});
