import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createHash } from 'node:crypto';

/**
 * A small stand-in for the LLM bridge speaking its real wire protocol
 * (POST /embed, GET /health; /summarize, /extract and /v1/chat/completions
 * in a simple deterministic form), with a switchable model and failure mode, for
 * tests of what the controller does when the bridge changes or fails.
 * Vectors are hashed bags of words: texts sharing words are similar.
 */
export class FakeBridge {
  model = 'fake-embedder-v1';
  dimension = 64;
  /** When set, /embed answers with this status. */
  failWith: number | null = null;
  /** Batches holding a text with this marker are refused with 400, as a bridge refuses bad input. */
  rejectMarker: string | null = null;
  embedCalls = 0;
  /** When true, /embed requests are received (counted) but never answered: a worker holding claimed jobs. */
  stallEmbeds = false;
  /** POST /summarize: texts received per call; failSummarizeWith makes it answer with that status. */
  summarizeRequests: Array<{ texts: string[]; target_words: number }> = [];
  failSummarizeWith: number | null = null;
  /** POST /v1/chat/completions answers with this content; null answers 503 as a bridge without a chat model. */
  chatReply: string | null = null;
  chatRequests: unknown[] = [];
  private server: Server | null = null;
  private port = 0;

  get url(): string {
    return `http://127.0.0.1:${this.port}`;
  }

  async start(port = 0): Promise<this> {
    this.server = createServer((request, response) => {
      let body = '';
      request.on('data', (chunk) => { body += chunk; });
      request.on('end', () => {
        const send = (status: number, payload: unknown) => {
          response.writeHead(status, { 'content-type': 'application/json' });
          response.end(JSON.stringify(payload));
        };
        if (request.method === 'GET' && request.url === '/health') {
          return send(200, { status: 'healthy', providers: { embeddings: { model: this.model, dimension: this.dimension } } });
        }
        if (request.method === 'POST' && request.url === '/embed') {
          this.embedCalls += 1;
          if (this.stallEmbeds) return;
          if (this.failWith !== null) return send(this.failWith, { error: 'fake failure', code: 'FAKE' });
          const { texts } = JSON.parse(body) as { texts: string[] };
          if (this.rejectMarker && texts.some((t) => t.includes(this.rejectMarker!))) {
            return send(400, { error: 'text refused', code: 'VALIDATION_ERROR' });
          }
          return send(200, { model: this.model, dimension: this.dimension, embeddings: texts.map((t) => this.embed(t)) });
        }
        if (request.method === 'POST' && request.url === '/summarize') {
          const { texts, target_words: target = 200 } = JSON.parse(body) as { texts: string[]; target_words?: number };
          this.summarizeRequests.push({ texts, target_words: target });
          if (this.failSummarizeWith !== null) return send(this.failSummarizeWith, { error: 'fake failure', code: 'FAKE' });
          const summary = this.summarize(texts, target);
          return send(200, { summary, word_count: summary ? summary.split(/\s+/).length : 0, model: 'fake-summarizer-v1' });
        }
        if (request.method === 'POST' && request.url === '/extract') {
          const { text } = JSON.parse(body) as { text: string };
          return send(200, { entities: this.extract(text), model: 'fake-entities-v1' });
        }
        if (request.method === 'POST' && request.url === '/v1/chat/completions') {
          this.chatRequests.push(JSON.parse(body));
          if (this.chatReply === null) {
            return send(503, { error: { message: 'No chat model is configured', type: 'service_unavailable', code: 'CHAT_NOT_CONFIGURED', param: null } });
          }
          return send(200, { id: 'chatcmpl-fake', object: 'chat.completion', model: 'fake-chat-v1',
            choices: [{ index: 0, finish_reason: 'stop', message: { role: 'assistant', content: this.chatReply } }] });
        }
        send(404, { error: 'not found' });
      });
    });
    await new Promise<void>((resolve) => this.server!.listen(port, '127.0.0.1', resolve));
    this.port = (this.server.address() as AddressInfo).port;
    return this;
  }

  async stop(): Promise<void> {
    if (!this.server) return;
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server!.close(() => resolve()));
    this.server = null;
  }

  /** Extractive like the builtin engine: whole sentences in order until about targetWords words. */
  summarize(texts: readonly string[], targetWords: number): string {
    const sentences = texts.flatMap((t) => t.match(/[^.!?]+[.!?]*/g) ?? []).map((s) => s.trim()).filter(Boolean);
    const picked: string[] = [];
    let words = 0;
    for (const sentence of sentences) {
      if (words >= targetWords) break;
      picked.push(sentence);
      words += sentence.split(/\s+/).length;
    }
    return picked.join(' ');
  }

  /** Capitalized words that do not start a sentence count as organizations. */
  extract(text: string) {
    const organizations = [...new Set([...text.matchAll(/(?<![.!?]\s|^)\b[A-Z][a-zA-Z]+/g)].map((m) => m[0]))];
    return { people: [], places: [], organizations, dates: [], emails: [], urls: [] };
  }

  embed(text: string): number[] {
    const vector = new Array<number>(this.dimension).fill(0);
    for (const word of text.toLowerCase().match(/[a-z0-9]+/g) ?? []) {
      const digest = createHash('sha1').update(`${this.model}:${word}`).digest();
      vector[digest[0]! % this.dimension]! += digest[1]! % 2 === 0 ? 1 : -1;
    }
    const norm = Math.hypot(...vector) || 1;
    return vector.map((value) => value / norm);
  }
}

/** A port nothing listens on (bound once, then released). */
export async function unusedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}
