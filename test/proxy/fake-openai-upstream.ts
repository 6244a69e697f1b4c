import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface RecordedRequest {
  method: string;
  url: string;
  headers: IncomingHttpHeaders;
  body: any;
  /** The connection closed before the fake finished answering (the proxy aborted it). */
  closedEarly: boolean;
}

/**
 * A small OpenAI-compatible upstream on a real port: GET /v1/models and POST
 * /v1/chat/completions, plain JSON or SSE (`data: {...}\n\n` chunks, then
 * `data: [DONE]`), recording every request it gets. Switches make it fail,
 * hang, or stream slowly.
 */
export class FakeOpenAiUpstream {
  /** The assistant's answer; streamed one word per chunk. */
  reply = 'Rotation happens on Tuesdays.';
  model = 'fake-gpt';
  /** Answer every chat request with this status, body and headers. */
  failWith: { status: number; body: string; headers?: Record<string, string> } | null = null;
  /** Never answer chat requests. */
  hang = false;
  /** Pause between SSE chunks. */
  chunkDelayMs = 0;
  /** Send the first SSE chunk, then keep the stream open without sending more. */
  stallStream = false;
  readonly requests: RecordedRequest[] = [];
  private server: Server | null = null;
  private port = 0;

  get baseUrl(): string {
    return `http://127.0.0.1:${this.port}/v1`;
  }

  get chatRequests(): RecordedRequest[] {
    return this.requests.filter((request) => request.url === '/v1/chat/completions');
  }

  get lastChat(): RecordedRequest {
    const last = this.chatRequests.at(-1);
    if (!last) throw new Error('the upstream got no chat request');
    return last;
  }

  async start(): Promise<this> {
    this.server = createServer((request, response) => {
      let text = '';
      request.on('data', (chunk) => { text += chunk; });
      request.on('end', () => {
        const recorded: RecordedRequest = {
          method: request.method ?? '', url: request.url ?? '', headers: request.headers,
          body: text ? JSON.parse(text) : undefined, closedEarly: false,
        };
        this.requests.push(recorded);
        response.on('close', () => { if (!response.writableFinished) recorded.closedEarly = true; });
        void this.answer(recorded, response);
      });
    });
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    this.port = (this.server.address() as AddressInfo).port;
    return this;
  }

  async stop(): Promise<void> {
    if (!this.server) return;
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server!.close(() => resolve()));
    this.server = null;
  }

  reset(): void {
    this.reply = 'Rotation happens on Tuesdays.';
    this.failWith = null;
    this.hang = false;
    this.chunkDelayMs = 0;
    this.stallStream = false;
  }

  private async answer(request: RecordedRequest, response: import('node:http').ServerResponse): Promise<void> {
    const json = (status: number, payload: unknown, headers: Record<string, string> = {}) => {
      response.writeHead(status, { 'content-type': 'application/json', ...headers });
      response.end(typeof payload === 'string' ? payload : JSON.stringify(payload));
    };
    if (request.method === 'GET' && request.url === '/v1/models') {
      return json(200, { object: 'list', data: [{ id: this.model, object: 'model', created: 0, owned_by: 'fake' }] });
    }
    if (request.method !== 'POST' || request.url !== '/v1/chat/completions') {
      return json(404, { error: { message: 'not found', type: 'invalid_request_error', param: null, code: null } });
    }
    if (this.failWith) return json(this.failWith.status, this.failWith.body, this.failWith.headers);
    if (this.hang) return;
    const id = `chatcmpl-${this.requests.length}`;
    const created = Math.floor(Date.now() / 1000);
    if (!request.body.stream) {
      return json(200, {
        id, object: 'chat.completion', created, model: this.model,
        choices: [{ index: 0, finish_reason: 'stop', message: { role: 'assistant', content: this.reply } }],
        usage: { prompt_tokens: 10, completion_tokens: 5, total_tokens: 15 },
      }, { 'x-request-id': `req-${id}` });
    }
    response.writeHead(200, { 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-cache' });
    const chunk = (delta: Record<string, unknown>, finish: string | null = null) => `data: ${JSON.stringify({
      id, object: 'chat.completion.chunk', created, model: this.model,
      choices: [{ index: 0, delta, finish_reason: finish }],
    })}\n\n`;
    const words = this.reply.split(/(?<= )/);
    const events = [chunk({ role: 'assistant', content: '' }), ...words.map((word) => chunk({ content: word })),
      chunk({}, 'stop'), 'data: [DONE]\n\n'];
    for (const [index, event] of events.entries()) {
      if (response.destroyed) return;
      response.write(event);
      if (this.stallStream && index === 1) return;
      if (this.chunkDelayMs > 0) await new Promise((resolve) => setTimeout(resolve, this.chunkDelayMs));
    }
    response.end();
  }
}
