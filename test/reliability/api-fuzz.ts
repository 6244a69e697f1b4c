import fc from 'fast-check';
import { type RunningService, startService } from '../helpers/service-harness.js';

/** One generated request and what came back. */
export interface FuzzOutcome {
  method: string;
  path: string;
  status: number;
  problem: string | null;
}

export interface FuzzReport {
  requests: number;
  byStatus: Record<string, number>;
  /** Requests that broke the invariant: a 5xx, a crash, or a 4xx without the error envelope. */
  failures: FuzzOutcome[];
}

interface Operation {
  method: string;
  path: string;
  queryNames: string[];
  bodyNames: string[];
}

/** Values that have broken parsers before: non-finite numbers, deep nesting, huge and odd strings. */
const hostileScalar = fc.oneof(
  fc.constantFrom('Infinity', '-Infinity', 'NaN', '1e309', '-1', '0', '9007199254740993', '', ' ', 'null', 'true',
    '../../etc/passwd', '%00', '\u0000', '😀', "' OR 1=1 --", '"', 'NEAR(', '*', '::', '/a//b', 'a'.repeat(5000)),
  fc.string({ maxLength: 40 }),
  fc.integer().map(String),
  fc.double().map(String),
);
const hostileJsonText = fc.oneof(
  fc.integer({ min: 50, max: 8000 }).map((depth) => `${'['.repeat(depth)}${']'.repeat(depth)}`),
  fc.integer({ min: 50, max: 8000 }).map((depth) => `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`),
  fc.constantFrom('1e309', '-1e309', '{"x":1e999}', '{', '[1,]', '"', 'null', '[]', '{}', '{"__proto__":{"polluted":1}}', '\u0000'),
);

/** A body: a JSON value with the operation's own field names (so validation is reached), or raw hostile text. */
const bodyFor = (op: Operation) => fc.oneof(
  { weight: 3, arbitrary: fc.record(Object.fromEntries(op.bodyNames.map((name) => [name, fc.jsonValue({ maxDepth: 4 })])),
    { requiredKeys: [] }).map((value) => JSON.stringify(value)) },
  { weight: 2, arbitrary: fc.jsonValue({ maxDepth: 6 }).map((value) => JSON.stringify(value)) },
  { weight: 2, arbitrary: hostileJsonText },
  { weight: 1, arbitrary: fc.tuple(fc.constantFrom(...(op.bodyNames.length ? op.bodyNames : ['x'])), hostileJsonText)
    .map(([name, text]) => `{"${name}":${text}}`) },
);

/** A `$ref` to `#/components/schemas/X` is that component. */
const resolveRef = (spec: any, schema: any) =>
  schema?.$ref ? spec.components?.schemas?.[String(schema.$ref).replace('#/components/schemas/', '')] : schema;

function operationsOf(spec: any): Operation[] {
  const operations: Operation[] = [];
  for (const [path, item] of Object.entries<any>(spec.paths ?? {})) {
    for (const [method, op] of Object.entries<any>(item)) {
      if (!['get', 'post', 'put', 'patch', 'delete'].includes(method)) continue;
      const queryNames = (op.parameters ?? []).filter((p: any) => p.in === 'query').map((p: any) => p.name as string);
      const schema = resolveRef(spec, op.requestBody?.content?.['application/json']?.schema);
      operations.push({ method: method.toUpperCase(), path, queryNames, bodyNames: Object.keys(schema?.properties ?? {}) });
    }
  }
  return operations;
}

function envelopeProblem(status: number, contentType: string, text: string): string | null {
  if (status >= 500) return `${status}`;
  if (status < 400) return null;
  if (!contentType.includes('application/json')) return `${status} without a JSON body`;
  let body: any;
  try {
    body = JSON.parse(text);
  } catch {
    return `${status} with a body that is not JSON`;
  }
  const plain = typeof body?.error === 'string' && typeof body?.code === 'string';
  const tool = body?.success === false && typeof body?.error?.code === 'string' && typeof body?.error?.message === 'string';
  return plain || tool ? null : `${status} without the error envelope: ${text.slice(0, 200)}`;
}

/**
 * Drives every route of /openapi.body and every MCP tool (REST and JSON-RPC)
 * with generated hostile input against a real server, and checks the
 * invariant: no 5xx, no crash, the error envelope on every 4xx.
 */
export async function runApiFuzz(options: { requests: number; seed: number; server?: RunningService }): Promise<FuzzReport> {
  const server = options.server ?? await startService();
  const report: FuzzReport = { requests: 0, byStatus: {}, failures: [] };
  try {
    // Something to find: ids and text for routes that need an existing conversation.
    const created = await server.api('POST', '/api/v1/conversations',
      { label: 'fuzz', messages: [{ role: 'user', content: 'the quick brown fox' }, { role: 'assistant', content: 'jumps' }] });
    const knownId = created.body.id as string;
    const operations = operationsOf((await server.api('GET', '/openapi.json')).body);
    const tools = ((await server.api('GET', '/mcp/tools')).body.tools as Array<{ name: string; inputSchema?: any }>)
      .map((tool) => ({ name: tool.name, params: Object.keys(tool.inputSchema?.properties ?? {}) }));

    const send = async (method: string, path: string, body: string | undefined, contentType = 'application/json') => {
      let status = 0;
      let problem: string | null;
      try {
        const response = await fetch(`${server.baseUrl}${path}`, {
          method,
          headers: { authorization: `Bearer ${server.apiKey}`, ...(body !== undefined ? { 'content-type': contentType } : {}),
            accept: 'application/json, text/event-stream' },
          body,
        });
        status = response.status;
        problem = envelopeProblem(status, response.headers.get('content-type') ?? '', await response.text());
      } catch (error) {
        problem = `no answer: ${(error as Error).message}`;
      }
      report.requests += 1;
      report.byStatus[status] = (report.byStatus[status] ?? 0) + 1;
      if (problem) report.failures.push({ method, path, status, problem });
    };

    const pathValue = fc.oneof(fc.constant(knownId), fc.uuid(), hostileScalar);
    const routeRequest = fc.record({
      op: fc.constantFrom(...operations),
      pathValues: fc.array(pathValue, { minLength: 4, maxLength: 4 }),
      query: fc.array(fc.tuple(fc.string({ maxLength: 12 }), hostileScalar), { maxLength: 3 }),
      knownQuery: fc.array(hostileScalar, { minLength: 4, maxLength: 4 }),
      body: fc.option(fc.constant(null), { nil: undefined }),
    }).chain((request) => bodyFor(request.op).map((body) => ({ ...request, bodyText: request.body === undefined ? undefined : body })));
    const toolRequest = fc.record({
      tool: fc.constantFrom(...tools),
      rpc: fc.boolean(),
      seedParams: fc.jsonValue({ maxDepth: 3 }),
      hostile: hostileJsonText,
    }).chain((request) => fc.record(Object.fromEntries(request.tool.params.map((name) => [name, fc.oneof(fc.jsonValue({ maxDepth: 4 }), hostileScalar)])),
      { requiredKeys: [] }).map((params) => ({ ...request, params })));

    const requests = fc.oneof({ weight: 4, arbitrary: routeRequest.map((r) => ({ kind: 'route' as const, r })) },
      { weight: 1, arbitrary: toolRequest.map((t) => ({ kind: 'tool' as const, t })) });

    const samples = fc.sample(requests, { numRuns: options.requests, seed: options.seed });
    for (const sample of samples) {
      if (sample.kind === 'route') {
        const { op, pathValues, query, knownQuery, bodyText } = sample.r;
        let index = 0;
        const path = op.path.replace(/\{[^}]+\}/g, () => encodeURIComponent(pathValues[index++ % pathValues.length]!));
        const params = new URLSearchParams();
        op.queryNames.forEach((name, i) => { if (i < knownQuery.length && knownQuery[i] !== '') params.append(name, knownQuery[i]!); });
        for (const [name, value] of query) params.append(name, value);
        const search = params.toString();
        const withBody = op.method !== 'GET' && op.method !== 'DELETE';
        await send(op.method, `${path}${search ? `?${search}` : ''}`, withBody ? bodyText ?? '{}' : undefined);
      } else {
        const { tool, rpc, params, hostile } = sample.t;
        const paramsText = Math.random() < 0.2 ? hostile : JSON.stringify(params);
        if (rpc) {
          await send('POST', '/mcp', `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"${tool.name}","arguments":${paramsText}}}`);
        } else {
          await send('POST', `/mcp/tools/${tool.name}`, paramsText);
        }
      }
    }
    return report;
  } finally {
    if (!options.server) await server.stop();
  }
}
