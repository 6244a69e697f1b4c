import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createHash } from 'node:crypto';

/**
 * A small stand-in for the LLM bridge speaking its real wire protocol
 * (POST /embed, GET /health), with a switchable model and failure mode, for
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
          if (this.failWith !== null) return send(this.failWith, { error: 'fake failure', code: 'FAKE' });
          const { texts } = JSON.parse(body) as { texts: string[] };
          if (this.rejectMarker && texts.some((t) => t.includes(this.rejectMarker!))) {
            return send(400, { error: 'text refused', code: 'VALIDATION_ERROR' });
          }
          return send(200, { model: this.model, dimension: this.dimension, embeddings: texts.map((t) => this.embed(t)) });
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
