import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { TObject } from 'typebox';
import { startService, type RunningService } from '../helpers/service-harness.js';
import { buildMemoryTools } from '../../src/mcp/memory-tools.js';
import * as conversations from '../../src/features/conversations/conversations.schemas.js';
import * as search from '../../src/features/search/search.schemas.js';
import * as context from '../../src/features/context/context.schemas.js';
import * as pruning from '../../src/features/pruning/pruning.schemas.js';
import * as summaries from '../../src/features/summaries/summaries.schemas.js';
import * as exporting from '../../src/features/export/export.schemas.js';

/** Each tool's input and output: the feature schemas themselves. */
const TOOL_SCHEMAS: Record<string, [input: TObject, output: TObject]> = {
  memory_store: [conversations.CreateConversationBody, conversations.CreateConversationResponse],
  memory_search: [search.QueryBody, search.SearchToolResponse],
  memory_update: [conversations.UpdateConversationBody, conversations.UpdateConversationResponse],
  memory_prune: [pruning.DryRunBody, pruning.PruneToolResponse],
  memory_get_context: [conversations.ConversationIdBody, conversations.ConversationMetadataResponse],
  memory_export: [exporting.ExportConversationBody, exporting.ExportConversationResponse],
  memory_stats: [conversations.ConversationStatsQuery, conversations.ConversationStatsResponse],
  memory_assemble_context: [context.AssembleContextTextBody, context.ContextText],
  memory_append: [conversations.AppendToConversationBody, conversations.AppendMessagesResponse],
  memory_summarize: [summaries.SummarizeBody, summaries.SummaryResponse],
  memory_delete: [conversations.ConversationIdBody, conversations.DeleteConversationResponse],
};

/** Every schema object that a `*.schemas.ts` file of src/features or src/mcp exports. */
async function exportedSchemas(): Promise<Set<unknown>> {
  const found = new Set<unknown>();
  const src = new URL('../../src/', import.meta.url);
  const files = [
    ...readdirSync(new URL('features/', src), { recursive: true, encoding: 'utf8' }).map((file) => new URL(`features/${file}`, src)),
    ...readdirSync(new URL('mcp/', src), { encoding: 'utf8' }).map((file) => new URL(`mcp/${file}`, src)),
  ].filter((url) => url.pathname.endsWith('.schemas.ts'));
  assert.ok(files.length >= 10, `schema files found: ${files.map((url) => fileURLToPath(url)).join(', ')}`);
  for (const file of files) {
    for (const value of Object.values(await import(file.href) as Record<string, unknown>)) {
      if (typeof value === 'object' && value !== null) found.add(value);
    }
  }
  return found;
}

describe('one schema per use case: routes and tools use the feature schema objects themselves', () => {
  let running: RunningService;
  let schemas: Set<unknown>;
  before(async () => {
    running = await startService();
    schemas = await exportedSchemas();
  });
  after(async () => {
    await running.stop();
  });

  const documentedRoutes = () => running.controller.app.routeCatalog
    .filter((route) => !(route.schema as { hide?: boolean } | undefined)?.hide && !route.url.startsWith('/docs'));

  test('every schema of every documented route is exported by a feature\'s schema file', () => {
    const checked: string[] = [];
    for (const { method, url, schema } of documentedRoutes()) {
      if (!schema) continue;
      const parts: Array<[string, unknown]> = [
        ['body', schema.body], ['querystring', schema.querystring], ['params', schema.params], ['headers', schema.headers],
        ...Object.entries((schema.response ?? {}) as Record<string, unknown>).map(([status, part]): [string, unknown] => [`response ${status}`, part]),
      ];
      for (const [part, value] of parts) {
        if (value === undefined) continue;
        const where = `${method} ${url} ${part}`;
        const toolName = /^\/mcp\/tools\/(memory_\w+)$/.exec(url)?.[1];
        if (toolName && part === 'response 200') {
          // The success envelope is made per tool around the tool's output schema.
          assert.equal((value as TObject).properties.data, TOOL_SCHEMAS[toolName]![1], where);
        } else {
          assert.ok(schemas.has(value), `${where} is not a schema exported by a *.schemas.ts file`);
        }
        checked.push(where);
      }
    }
    // Positive control: the walk saw the routes (and their parts) a client uses most.
    for (const expected of ['POST /api/v1/conversations body', 'POST /api/v1/conversations response 201', 'POST /api/v1/query body',
      'GET /api/v1/conversations querystring', 'POST /mcp/tools/memory_store body', 'GET /stats response 200']) {
      assert.ok(checked.includes(expected), `${expected} was not walked`);
    }
    assert.ok(checked.length > 100, `${checked.length} schema parts walked`);
  });

  test('each tool\'s inputSchema and outputSchema, and its REST route\'s body and data, are the feature schemas', () => {
    const tools = buildMemoryTools({ conversations: {}, search: {}, pruning: {}, context: {}, summaries: {} } as never);
    assert.deepEqual(tools.map((tool) => tool.name).sort(), Object.keys(TOOL_SCHEMAS).sort());
    for (const tool of tools) {
      const [input, output] = TOOL_SCHEMAS[tool.name]!;
      assert.equal(tool.inputSchema, input, `${tool.name} inputSchema`);
      assert.equal(tool.outputSchema, output, `${tool.name} outputSchema`);
      const route = running.controller.app.routeCatalog.find((r) => r.method === 'POST' && r.url === `/mcp/tools/${tool.name}`);
      assert.ok(route, `POST /mcp/tools/${tool.name}`);
      assert.equal(route.schema?.body, input, `${tool.name} REST body`);
      assert.equal(((route.schema?.response as Record<number, TObject>)[200]!).properties.data, output, `${tool.name} REST data`);
    }
  });

  test('the listing (GET /mcp/tools) and /openapi.json carry those schemas, the REST tool bodies included', async () => {
    const listing = await running.api('GET', '/mcp/tools');
    for (const tool of listing.body.tools) {
      const [input, output] = TOOL_SCHEMAS[tool.name]!;
      assert.deepEqual(tool.input_schema, JSON.parse(JSON.stringify(input)), tool.name);
      assert.deepEqual(tool.output_schema, JSON.parse(JSON.stringify(output)), tool.name);
    }
    const openapi = (await running.api('GET', '/openapi.json')).body;
    const store = openapi.paths['/mcp/tools/memory_store'].post;
    assert.deepEqual(store.requestBody.content['application/json'].schema, { $ref: '#/components/schemas/CreateConversationBody' },
      'the tool\'s body is the create schema, by name');
    assert.deepEqual(openapi.components.schemas.CreateConversationBody.required.sort(), ['label', 'messages']);
    assert.ok('conversation_id' in store.responses['200'].content['application/json'].schema.properties.data.properties);
  });

  test('/openapi.json names each use case\'s schemas once, in components, and every route refers to them', async () => {
    const openapi = (await running.api('GET', '/openapi.json')).body;
    const create = openapi.paths['/api/v1/conversations'].post;
    assert.deepEqual(create.requestBody.content['application/json'].schema, { $ref: '#/components/schemas/CreateConversationBody' });
    assert.deepEqual(create.responses['201'].content['application/json'].schema,
      { $ref: '#/components/schemas/CreateConversationResponse' });
    assert.deepEqual(create.responses['400'].content['application/json'].schema, { $ref: '#/components/schemas/ErrorResponse' });
    const refs = JSON.stringify(openapi.paths).match(/#\/components\/schemas\/[A-Za-z0-9_-]+/g) ?? [];
    assert.ok(refs.length > 50, `routes refer to named schemas (${refs.length} references)`);
    for (const ref of new Set(refs)) {
      assert.ok(openapi.components.schemas[ref.split('/').pop()!], `${ref} is defined`);
    }
    // Every documented route's body is named: none is left inline.
    for (const route of documentedRoutes()) {
      if (!route.schema?.body) continue;
      const path = route.url.replace(/:([A-Za-z0-9_]+)/g, '{$1}');
      const body = openapi.paths[path]?.[route.method.toLowerCase()]?.requestBody?.content?.['application/json']?.schema;
      if (body) assert.ok(body.$ref, `${route.method} ${route.url} body is a named component`);
    }
  });
});
