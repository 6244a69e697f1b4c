import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { FakeBridge } from '../helpers/fake-bridge.js';
import { POSTGRES_TARGETS, type PostgresDatabase } from '../helpers/postgres-servers.js';
import { startService, type RunningService } from '../helpers/service-harness.js';
import { assertNoLeak, FOLDERS, foreignStrings, MARKERS, seedTenants, type Seeded } from './tenancy-fixture.js';

interface Operation { method: string; path: string; query: string[]; body: Record<string, any> | null }

/** Every operation /openapi.json lists under the API and the tools, with its query and body fields. */
function operationsOf(document: any): Operation[] {
  const operations: Operation[] = [];
  for (const [path, methods] of Object.entries<any>(document.paths)) {
    if (!path.startsWith('/api/') && !path.startsWith('/mcp/') && path !== '/stats') continue;
    for (const [method, operation] of Object.entries<any>(methods)) {
      if (!['get', 'post', 'put', 'delete'].includes(method)) continue;
      const query = (operation.parameters ?? []).filter((p: any) => p.in === 'query').map((p: any) => p.name);
      const body = operation.requestBody?.content?.['application/json']?.schema ?? null;
      operations.push({ method: method.toUpperCase(), path, query, body: resolve(document, body) });
    }
  }
  return operations;
}

const resolve = (document: any, schema: any): any => {
  if (!schema?.$ref) return schema;
  return document.components.schemas[schema.$ref.split('/').pop()];
};

/** Values by field name: markers of every tenant, every id, every folder; a tenant must only ever see its own. */
function fieldValues(seeded: Seeded) {
  const ids = Object.values(seeded.ids).flat();
  const folders = ['/', '/t', ...Object.values(FOLDERS), `${FOLDERS.bob}/deeper`];
  const queries = [...Object.values(MARKERS), 'project planning meeting', 'budget review'].flatMap((q) => [q, `${q} budget`]);
  const labels = Object.values(seeded.labels);
  // Writes take only her own labels: a conversation of hers named like Bob's would read as a leak later.
  const ownLabels = [seeded.labels.alice, 'fresh-label'];
  const byName: Record<string, fc.Arbitrary<unknown>> = {
    query: fc.constantFrom(...queries),
    q: fc.constantFrom(...queries),
    conversation_id: fc.constantFrom(...ids),
    id: fc.constantFrom(...ids),
    conversation_ids: fc.subarray(ids, { minLength: 1, maxLength: 3 }),
    folder: fc.constantFrom(...folders),
    label: fc.constantFrom(...ownLabels),
    preferred_labels: fc.subarray(labels, { minLength: 1 }),
    excluded_folders: fc.subarray(folders.filter((f) => f !== '/'), { maxLength: 2 }),
    mode: fc.constantFrom('semantic', 'hybrid', 'keyword'),
    level: fc.constantFrom('daily', 'weekly'),
    limit: fc.constant(50),
    threshold_days: fc.constant(0),
    importance_threshold: fc.constant(10),
    messages: fc.constant([{ role: 'user', content: 'a new note about planning' }]),
    filters: fc.record({ folder: fc.constantFrom(...folders), label: fc.constantFrom(...labels) }, { requiredKeys: [] }),
    days: fc.constant(30),
  };
  return { ids, byName };
}

/** A body for an operation's schema: known fields from the table (each present or not), required ones always. */
function bodyOf(schema: any, byName: Record<string, fc.Arbitrary<unknown>>): fc.Arbitrary<Record<string, unknown> | undefined> {
  if (!schema?.properties) return fc.constant(undefined);
  const known: Record<string, fc.Arbitrary<unknown>> = {};
  for (const name of Object.keys(schema.properties)) if (byName[name]) known[name] = byName[name]!;
  const required = (schema.required ?? []).filter((name: string) => byName[name]);
  return fc.record(known, { requiredKeys: required });
}

for (const target of [{ name: 'sqlite', open: null as null | (() => Promise<PostgresDatabase>) }, ...POSTGRES_TARGETS]) {
  describe(`a tenant sees only its grants (${target.name})`, () => {
    let bridge: FakeBridge;
    let pg: PostgresDatabase | null = null;
    let service: RunningService;
    let seeded: Seeded;
    let forbidden: string[];
    let operations: Operation[];
    let token: string;

    before(async () => {
      bridge = await new FakeBridge().start();
      pg = target.open ? await target.open() : null;
      service = await startService({
        bridge: { url: bridge.url },
        overrides: pg ? { storage: { driver: 'postgres', url: pg.url, pool_size: 4 } } : {},
      });
      seeded = await seedTenants(service);
      forbidden = foreignStrings(seeded);
      await service.waitForEmbeddings();
      operations = operationsOf((await service.api('GET', '/openapi.json')).body);
      const minted = await service.api('POST', '/api/v1/keys/me/tokens',
        { grants: [{ folder: FOLDERS.alice, access: 'write' }, { folder: FOLDERS.shared, access: 'read' }], expires_in: 600 },
        { authorization: `Bearer ${seeded.alice.key}` });
      assert.equal(minted.status, 201, minted.text);
      token = minted.body.token;
    });

    after(async () => {
      await service?.stop();
      await pg?.stop();
      await bridge?.stop();
    });

    test('positive control: the admin key finds every tenant\'s words', async () => {
      for (const mode of ['semantic', 'hybrid', 'keyword']) {
        const found = await service.api('POST', '/api/v1/query', { query: `${MARKERS.bob} budget`, mode, limit: 50 });
        assert.equal(found.status, 200, found.text);
        assert.ok(found.text.includes(MARKERS.bob), `${mode}: admin sees Bob`);
      }
      const context = await service.api('POST', '/api/v1/context/assemble', { query: `${MARKERS.hr} budget review` });
      assert.ok(context.text.includes(MARKERS.hr), 'admin context holds /hr');
    });

    test('the tenant finds its own and shared words in every mode, and none of the others\'', async () => {
      for (const credential of [seeded.alice.key, token]) {
        const as = { authorization: `Bearer ${credential}` };
        for (const mode of ['semantic', 'hybrid', 'keyword']) {
          const own = await service.api('POST', '/api/v1/query', { query: `${MARKERS.alice} budget`, mode, limit: 50 }, as);
          assert.ok(own.text.includes(MARKERS.alice), `${mode}: Alice finds her own`);
          const shared = await service.api('POST', '/api/v1/query', { query: `${MARKERS.shared} budget`, mode, limit: 50 }, as);
          assert.ok(shared.text.includes(MARKERS.shared), `${mode}: Alice finds the shared folder`);
          const foreign = await service.api('POST', '/api/v1/query', { query: `${MARKERS.bob} ${MARKERS.hr} budget`, mode, limit: 50 }, as);
          assertNoLeak(foreign.text, forbidden, `query ${mode}`, `${MARKERS.bob} ${MARKERS.hr}`);
        }
        const listed = await service.api('GET', '/api/v1/conversations?page_size=100', undefined, as);
        assert.equal(listed.body.total, 4, 'her two and the two shared');
        const count = await service.api('GET', '/api/v1/conversations/count', undefined, as);
        assert.equal(count.body.count, 4);
        const stats = await service.api('GET', '/stats', undefined, as);
        assert.equal(stats.body.total_conversations, 4);
        assert.equal(stats.body.total_messages, 8);
        assert.equal(stats.body.embeddings_count, 8);
        const status = await service.api('GET', '/api/v1/embeddings/status', undefined, as);
        assert.deepEqual([status.body.done, status.body.indexed, status.body.index_catch_up.indexed], [8, 8, 8],
          'no count of the whole store');
        assert.equal(status.body.worker.embeddedSinceStart, undefined);
        const bobs = await service.api('GET', `/api/v1/conversations/${seeded.ids.bob[0]}`, undefined, as);
        const missing = await service.api('GET', '/api/v1/conversations/00000000-0000-4000-8000-000000000000', undefined, as);
        assert.equal(bobs.status, 404);
        assert.deepEqual(Object.keys(bobs.body), Object.keys(missing.body));
        assert.equal(bobs.body.code, missing.body.code, 'the same answer as a missing conversation');
      }
    });

    test('every route and tool, any body and filter: nothing of another tenant in any answer (key and token)', async () => {
      const { byName } = fieldValues(seeded);
      const credential = fc.constantFrom(seeded.alice.key, token);
      const call = fc.constantFrom(...operations).chain((operation) => fc.record({
        operation: fc.constant(operation),
        credential,
        id: fc.constantFrom(...Object.values(seeded.ids).flat()),
        tool: fc.constantFrom('memory_search', 'memory_get_context', 'memory_stats', 'memory_export', 'memory_assemble_context', 'memory_prune'),
        body: bodyOf(operation.body, byName),
        query: fc.record(Object.fromEntries(operation.query.filter((name) => byName[name]).map((name) => [name, byName[name]!])), { requiredKeys: [] }),
      }));
      await fc.assert(fc.asyncProperty(call, async ({ operation, credential: presented, id, tool, body, query }) => {
        const path = operation.path.replace('{id}', id).replace('{tool}', tool);
        const search = new URLSearchParams(Object.entries(query).map(([k, v]): [string, string] => [k, String(v)])).toString();
        const answer = await service.api(operation.method, `${path}${search ? `?${search}` : ''}`,
          operation.method === 'GET' || operation.method === 'DELETE' ? undefined : body ?? {},
          { authorization: `Bearer ${presented}` });
        assert.ok(answer.status < 500, `${operation.method} ${path}: ${answer.status} ${answer.text.slice(0, 300)}`);
        assertNoLeak(answer.text, forbidden, `${operation.method} ${path} ${JSON.stringify(body ?? query)}`,
          `${path}?${decodeURIComponent(search)} ${JSON.stringify(body ?? {})}`);
      }), { numRuns: 300, seed: 51 });
    });

    test('MCP over /mcp: a tenant\'s tools see only its grants', async () => {
      const rpc = async (name: string, args: Record<string, unknown>): Promise<string> => {
        const answer = await service.api('POST', '/mcp', { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name, arguments: args } },
          { authorization: `Bearer ${seeded.alice.key}`, accept: 'application/json, text/event-stream' });
        assert.equal(answer.status, 200, answer.text);
        return answer.text;
      };
      assert.ok((await rpc('memory_search', { query: `${MARKERS.alice} budget` })).includes(MARKERS.alice));
      for (const [name, args] of [
        ['memory_search', { query: `${MARKERS.bob} ${MARKERS.hr}` }],
        ['memory_get_context', { query: `${MARKERS.bob} budget` }],
        ['memory_stats', {}],
        ['memory_export', {}],
      ] as const) assertNoLeak(await rpc(name, args), forbidden, `MCP ${name}`, JSON.stringify(args));
    });

    test('writes outside the write grants are refused and change nothing; a create without a folder lands in the grant', async () => {
      const as = { authorization: `Bearer ${seeded.alice.key}` };
      const before = await Promise.all([...seeded.ids.bob, ...seeded.ids.hr, ...seeded.ids.shared]
        .map((id) => service.api('GET', `/api/v1/conversations/${id}`)));
      const shared = seeded.ids.shared[0]!;
      const bob = seeded.ids.bob[0]!;
      // Her own, made now: the fuzz before may have deleted the seeded ones.
      const mine = (await service.api('POST', '/api/v1/conversations', { label: 'mine', folder: FOLDERS.alice, messages: [] }, as)).body.id;
      const refused = [
        ['POST', '/api/v1/conversations', { label: 'x', folder: FOLDERS.bob, messages: [] }, 403],
        ['POST', '/api/v1/conversations', { label: 'x', folder: FOLDERS.shared, messages: [] }, 403],
        ['POST', '/api/v1/conversations', { label: 'x', folder: '/t/alice/../bob', messages: [] }, 400],
        ['PUT', `/api/v1/conversations/${shared}/label`, { label: 'mine', folder: FOLDERS.shared }, 403],
        ['PUT', `/api/v1/conversations/${bob}/label`, { label: 'mine', folder: FOLDERS.bob }, 404],
        ['PUT', `/api/v1/conversations/${mine}/folder`, { folder: FOLDERS.bob }, 403],
        ['PUT', `/api/v1/conversations/${shared}/importance`, { importance_score: 1 }, 403],
        ['PUT', `/api/v1/conversations/${shared}/pin`, undefined, 403],
        ['PUT', `/api/v1/conversations/${shared}/archive`, undefined, 403],
        ['DELETE', `/api/v1/conversations/${shared}`, undefined, 403],
        ['DELETE', `/api/v1/conversations/${bob}`, undefined, 404],
        ['POST', `/api/v1/conversations/${shared}/messages`, { messages: [{ role: 'user', content: 'hi' }] }, 403],
        ['POST', `/api/v1/conversations/${bob}/messages`, { messages: [{ role: 'user', content: 'hi' }] }, 404],
        ['POST', '/api/v1/prune/execute', { conversation_ids: [shared] }, 403],
        ['POST', '/api/v1/prune/execute', { conversation_ids: [bob] }, 404],
        ['POST', '/api/v1/summarize', { conversation_id: shared, level: 'daily' }, 403],
        ['POST', '/api/v1/import', { conversations: [{ id: '11111111-1111-4111-8111-111111111111', label: 'planted', folder: FOLDERS.bob,
          messages: [{ role: 'user', content: 'planted', timestamp: '2026-11-20T10:00:00Z' }] }] }, 403],
        ['POST', '/api/v1/rebuild-embeddings', undefined, 403],
        ['GET', '/health/detailed', undefined, 403],
        ['GET', '/api/v1/keys', undefined, 403],
        ['POST', '/api/v1/keys', { name: 'sneaky', grants: [{ folder: '/', access: 'write' }] }, 403],
      ] as const;
      for (const [method, path, body, status] of refused) {
        const answer = await service.api(method, path, body, as);
        assert.equal(answer.status, status, `${method} ${path}: ${answer.text}`);
        assert.ok(typeof answer.body?.error === 'string', `${method} ${path} answers the error envelope`);
        assertNoLeak(answer.text, forbidden, `${method} ${path}`, `${path} ${JSON.stringify(body ?? {})}`);
      }
      const tools = [
        ['memory_delete', { conversation_id: shared }, 403],
        ['memory_delete', { conversation_id: bob }, 404],
        ['memory_store', { label: 'x', folder: FOLDERS.hr, messages: [{ role: 'user', content: 'planted' }] }, 403],
        ['memory_update', { conversation_id: shared, label: 'mine' }, 403],
        ['memory_update', { conversation_id: mine, folder: FOLDERS.hr }, 403],
        ['memory_update', { conversation_id: bob, status: 'archived' }, 404],
        ['memory_append', { conversation_id: shared, messages: [{ role: 'user', content: 'hi' }] }, 403],
        ['memory_summarize', { conversation_id: bob, level: 'daily' }, 404],
      ] as const;
      for (const [tool, params, status] of tools) {
        const answer = await service.api('POST', `/mcp/tools/${tool}`, params, as);
        assert.equal(answer.status, status, `${tool} ${JSON.stringify(params)}: ${answer.text}`);
        assert.equal(answer.body.success, false);
      }
      const after = await Promise.all([...seeded.ids.bob, ...seeded.ids.hr, ...seeded.ids.shared]
        .map((id) => service.api('GET', `/api/v1/conversations/${id}`)));
      // The admin's own reads move last_accessed; nothing else may differ.
      const state = ({ body }: { body: any }) => ({ ...body, last_accessed: undefined });
      assert.deepEqual(after.map(state), before.map(state), 'nothing outside the write grants changed');
      assert.equal((await service.api('GET', `/api/v1/conversations/count?folder=${FOLDERS.bob}`)).body.count, 2, 'the import created nothing');

      const created = await service.api('POST', '/api/v1/conversations', { label: 'no folder given', messages: [] }, as);
      assert.equal(created.status, 201, created.text);
      assert.equal(created.body.folder, FOLDERS.alice);
    });
  });
}
