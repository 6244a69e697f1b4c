import { EventEmitter } from 'node:events';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * Small real HTTP servers speaking Ollama's and OpenAI's wire protocols, for
 * provider and bridge tests. Each route answers with its protocol's normal
 * response unless a scripted behaviour is queued for it (consumed in order):
 * an error status, no answer at all, a dropped connection.
 */
export interface RecordedRequest {
  method: string;
  path: string;
  headers: IncomingMessage['headers'];
  body: any;
}

export type Behaviour =
  | { status: number; body?: unknown; headers?: Record<string, string> }
  /** Never answers: the request stays open until the client gives up. */
  | { hang: true }
  | { dropConnection: true };

type Handler = (req: RecordedRequest, res: ServerResponse) => void;

export class FakeUpstream {
  readonly requests: RecordedRequest[] = [];
  private readonly scripts = new Map<string, Behaviour[]>();
  private readonly arrivals = new EventEmitter();
  private server: Server | undefined;
  url = '';

  constructor(private readonly routes: Record<string, Handler>) {}

  async start(): Promise<this> {
    this.server = createServer((req, res) => void this.handle(req, res));
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server!.address() as AddressInfo).port}`;
    return this;
  }

  /** Queue behaviours for `METHOD /path`; each request consumes one, then the normal handler answers. */
  script(route: string, ...behaviours: Behaviour[]): void {
    this.scripts.set(route, [...(this.scripts.get(route) ?? []), ...behaviours]);
  }

  /** Resolves when the next request to `METHOD /path` arrives. */
  received(route: string): Promise<RecordedRequest> {
    return new Promise((resolve) => this.arrivals.once(route, resolve));
  }

  requestsTo(route: string): RecordedRequest[] {
    return this.requests.filter((r) => `${r.method} ${r.path}` === route);
  }

  reset(): void {
    this.requests.length = 0;
    this.scripts.clear();
  }

  async close(): Promise<void> {
    this.server?.closeAllConnections();
    await new Promise<void>((resolve) => this.server?.close(() => resolve()) ?? resolve());
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const raw = Buffer.concat(chunks).toString('utf8');
    let body: unknown = raw;
    try {
      body = raw ? JSON.parse(raw) : undefined;
    } catch {
      // keep raw text
    }
    const path = (req.url ?? '/').split('?')[0]!;
    const recorded: RecordedRequest = { method: req.method ?? 'GET', path, headers: req.headers, body };
    this.requests.push(recorded);
    const route = `${recorded.method} ${path}`;

    const behaviour = this.scripts.get(route)?.shift();
    this.arrivals.emit(route, recorded);
    if (behaviour && 'hang' in behaviour) return;
    if (behaviour && 'dropConnection' in behaviour) {
      req.socket.destroy();
      return;
    }
    if (behaviour) {
      sendJson(res, behaviour.status, behaviour.body ?? { error: `scripted ${behaviour.status}` }, behaviour.headers);
      return;
    }
    const handler = this.routes[route];
    if (!handler) return sendJson(res, 404, { error: `no route ${route}` });
    handler(recorded, res);
  }
}

export function sendJson(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  if (res.destroyed) return;
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(JSON.stringify(body));
}

/** A deterministic, not normalized vector for a text (so tests can check normalization). */
export function fakeVector(text: string, dimension: number): number[] {
  let h = 2166136261;
  for (const ch of text) h = Math.imul(h ^ ch.codePointAt(0)!, 16777619) >>> 0;
  const out: number[] = [];
  for (let i = 0; i < dimension; i++) {
    h = Math.imul(h ^ (h >>> 15), 2246822507) >>> 0;
    out.push(((h % 2000) - 1000) / 100);
  }
  return out;
}

function chatCompletion(model: string, content: string): Record<string, unknown> {
  return {
    id: 'chatcmpl-fake',
    object: 'chat.completion',
    created: 1_700_000_000,
    model,
    choices: [{ index: 0, message: { role: 'assistant', content }, finish_reason: 'stop' }],
    usage: { prompt_tokens: 10, completion_tokens: 5, total_tokens: 15 },
  };
}

/** The reply the fake chat endpoints give: echoes the last user message, or a summary for summary prompts. */
function fakeReply(body: any): string {
  const last = body?.messages?.at(-1)?.content ?? '';
  if (typeof last === 'string' && last.startsWith('Summarize')) return 'Summary: The team agreed on the plan. Bob owns the migration. Extra sentence here.';
  return `echo: ${String(last)}`;
}

function chatHandler(req: RecordedRequest, res: ServerResponse): void {
  const body = req.body ?? {};
  if (!Array.isArray(body.messages)) return sendJson(res, 400, { error: { message: "'messages' is required", type: 'invalid_request_error', param: 'messages', code: null } });
  if (body.model === 'missing-model') return sendJson(res, 404, { error: { message: `model "${body.model}" not found, try pulling it first`, type: 'api_error', param: null, code: null } });
  const content = fakeReply(body);
  if (!body.stream) return sendJson(res, 200, chatCompletion(body.model, content));
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
  const words = content.split(' ');
  for (const [i, word] of words.entries()) {
    const chunk = { id: 'chatcmpl-fake', object: 'chat.completion.chunk', created: 1_700_000_000, model: body.model, choices: [{ index: 0, delta: { role: 'assistant', content: (i ? ' ' : '') + word }, finish_reason: null }] };
    res.write(`data: ${JSON.stringify(chunk)}\n\n`);
  }
  res.write(`data: ${JSON.stringify({ id: 'chatcmpl-fake', object: 'chat.completion.chunk', created: 1_700_000_000, model: body.model, choices: [{ index: 0, delta: {}, finish_reason: 'stop' }] })}\n\n`);
  res.end('data: [DONE]\n\n');
}

export const OLLAMA_DIMENSION = 768;

/** Ollama: POST /api/embed, GET /api/tags, POST /v1/chat/completions (its OpenAI-compatible API). */
export function fakeOllama(models: string[] = ['nomic-embed-text:latest', 'llama3.2:latest']): FakeUpstream {
  return new FakeUpstream({
    'POST /api/embed': (req, res) => {
      const { model, input } = req.body ?? {};
      if (!model) return sendJson(res, 400, { error: 'model is required' });
      if (!models.some((m) => m === model || m === `${model}:latest`)) return sendJson(res, 404, { error: `model "${model}" not found, try pulling it first` });
      const inputs: string[] = typeof input === 'string' ? [input] : input;
      if (!Array.isArray(inputs)) return sendJson(res, 400, { error: 'invalid input type' });
      sendJson(res, 200, { model, embeddings: inputs.map((t) => fakeVector(t, OLLAMA_DIMENSION)), total_duration: 1000, load_duration: 10, prompt_eval_count: inputs.length });
    },
    'GET /api/tags': (_req, res) => sendJson(res, 200, { models: models.map((name) => ({ name, model: name, size: 1, digest: 'sha256:fake' })) }),
    'POST /v1/chat/completions': chatHandler,
  });
}

export const OPENAI_TEST_KEY = 'sk-test-key';

/** An OpenAI-compatible server under /v1: POST /v1/embeddings, GET /v1/models, POST /v1/chat/completions; Bearer key required. */
export function fakeOpenAi(): FakeUpstream {
  const authorized = (handler: Handler): Handler => (req, res) => {
    if (req.headers.authorization !== `Bearer ${OPENAI_TEST_KEY}`) {
      return sendJson(res, 401, { error: { message: 'Incorrect API key provided', type: 'invalid_request_error', param: null, code: 'invalid_api_key' } });
    }
    handler(req, res);
  };
  return new FakeUpstream({
    'POST /v1/embeddings': authorized((req, res) => {
      const { model, input, dimensions } = req.body ?? {};
      const inputs: string[] = typeof input === 'string' ? [input] : input;
      if (!Array.isArray(inputs) || inputs.length === 0) return sendJson(res, 400, { error: { message: "'input' is invalid", type: 'invalid_request_error', param: 'input', code: null } });
      const dimension = typeof dimensions === 'number' ? dimensions : 1536;
      // Real servers may return items in any order; the index field is what counts.
      const data = inputs.map((t, index) => ({ object: 'embedding', index, embedding: fakeVector(t, dimension) })).reverse();
      sendJson(res, 200, { object: 'list', data, model, usage: { prompt_tokens: inputs.length, total_tokens: inputs.length } });
    }),
    'GET /v1/models': authorized((_req, res) => sendJson(res, 200, { object: 'list', data: [{ id: 'gpt-4o-mini', object: 'model', owned_by: 'fake' }] })),
    'POST /v1/chat/completions': authorized(chatHandler),
  });
}

/** A URL where nothing listens (a port that was just freed). */
export async function unusedUrl(): Promise<string> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return `http://127.0.0.1:${port}`;
}
