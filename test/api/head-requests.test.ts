import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import net from 'node:net';
import { type RunningService, startService } from '../helpers/service-harness.js';
import { createConversation, UNKNOWN_ID } from '../helpers/fixtures.js';

/**
 * HEAD, on every route and off them, is answered with headers only: no body byte may follow, or a
 * keep-alive client reads it as the next response's status line (llhttp: HPE_INVALID_CONSTANT).
 */

interface RawResponse {
  status: number;
  headers: Record<string, string>;
  body: Buffer;
}

/** One keep-alive connection read byte for byte: each answer must start exactly where the one before ended. */
class RawConnection {
  private buffer = Buffer.alloc(0);
  private ended = false;
  private wake: (() => void) | null = null;

  private constructor(private readonly socket: net.Socket) {
    socket.on('data', (chunk: Buffer) => { this.buffer = Buffer.concat([this.buffer, chunk]); this.notify(); });
    socket.on('close', () => { this.ended = true; this.notify(); });
    socket.on('error', () => {});
  }

  static open(port: number): Promise<RawConnection> {
    return new Promise((resolve, reject) => {
      const socket = net.connect(port, '127.0.0.1', () => resolve(new RawConnection(socket)));
      socket.once('error', reject);
    });
  }

  /** Sends the request bytes as they are and reads one answer; a HEAD's answer has no body to read. */
  async exchange(request: string, method: string): Promise<RawResponse> {
    this.socket.write(request);
    return this.read(method);
  }

  /** The next answer: its status line must be the very next bytes. */
  async read(method: string): Promise<RawResponse> {
    let headEnd = this.buffer.indexOf('\r\n\r\n');
    while (headEnd < 0) {
      assert.ok(!this.ended, `connection closed before a full answer head; got ${JSON.stringify(this.text())}`);
      await this.more();
      headEnd = this.buffer.indexOf('\r\n\r\n');
    }
    const [statusLine, ...headerLines] = this.buffer.subarray(0, headEnd).toString('latin1').split('\r\n');
    const status = /^HTTP\/1\.1 (\d{3}) [^\r\n]*$/.exec(statusLine!);
    assert.ok(status, `an answer must start with a status line; got ${JSON.stringify(this.text())}`);
    const headers: Record<string, string> = {};
    for (const line of headerLines) {
      const match = /^([!#$%&'*+.^_`|~0-9A-Za-z-]+):[ \t]*(.*?)[ \t]*$/.exec(line);
      assert.ok(match, `malformed header line ${JSON.stringify(line)}`);
      headers[match[1]!.toLowerCase()] = match[2]!;
    }
    this.buffer = this.buffer.subarray(headEnd + 4);
    if (headers['content-length'] !== undefined) assert.match(headers['content-length'], /^\d+$/);
    assert.equal(headers['transfer-encoding'], undefined, 'the tests expect Content-Length framing');
    const length = method === 'HEAD' ? 0 : Number(headers['content-length'] ?? 0);
    while (this.buffer.length < length) {
      assert.ok(!this.ended, 'connection closed inside a body');
      await this.more();
    }
    const body = this.buffer.subarray(0, length);
    this.buffer = this.buffer.subarray(length);
    return { status: Number(status[1]), headers, body };
  }

  /** Resolves once the server closed the connection; what it sent after the last answer read must be nothing. */
  async closed(): Promise<void> {
    while (!this.ended) await this.more();
    assert.equal(this.text(), '', 'bytes after the last answer');
  }

  close(): void {
    this.socket.destroy();
  }

  private text(): string {
    return this.buffer.toString('latin1').slice(0, 200);
  }

  private more(): Promise<void> {
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no more bytes within 5 s; have ${JSON.stringify(this.text())}`)), 5000);
      this.wake = () => { clearTimeout(timer); resolve(); };
    });
  }

  private notify(): void {
    const wake = this.wake;
    this.wake = null;
    wake?.();
  }
}

const request = (method: string, path: string, headers: Record<string, string> = {}) =>
  `${method} ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: keep-alive\r\n` +
  Object.entries(headers).map(([name, value]) => `${name}: ${value}\r\n`).join('') + '\r\n';

describe('HEAD requests', () => {
  let server: RunningService;
  let port: number;
  let paths: string[];
  const authorized = () => ({ authorization: `Bearer ${server.apiKey}` });

  before(async () => {
    server = await startService();
    port = Number(new URL(server.baseUrl).port);
    const id = await createConversation(server);
    const documented = Object.keys((await server.api('GET', '/openapi.json')).body.paths as Record<string, unknown>);
    const registered = server.controller.app.routeCatalog.map((route) => route.url);
    const templates = [...new Set([...documented, ...registered])];
    assert.ok(templates.includes('/api/v1/conversations/{id}/folder'), 'the route of the report is documented');
    // Each template with a real conversation id, with one that names nothing, and wildcards filled in.
    const concrete = (template: string, value: string) =>
      template.replace(/\{[^}]+\}|:[A-Za-z_]+/g, encodeURIComponent(value)).replace(/\*/g, 'anything');
    paths = [...new Set([
      ...templates.flatMap((template) => [concrete(template, id), concrete(template, UNKNOWN_ID)]),
      '/api/v1/conversations/x/folder', '/api/v1/nope', '/api/v2', '/mcp/nope', '/docs/nope', '/nope',
      '/conversations/abc', '/assets/missing.js', '/favicon.ico', '/health?verbose=1', '/openapi.json?x=%zz', '/%',
    ])];
  });
  after(() => server.stop());

  for (const withKey of [true, false]) {
    it(`every route and unknown path, ${withKey ? 'with' : 'without'} a key: headers only, on one keep-alive connection`, async () => {
      const connection = await RawConnection.open(port);
      try {
        for (const path of paths) {
          const answer = await connection.exchange(request('HEAD', path, withKey ? authorized() : {}), 'HEAD');
          assert.ok(answer.status >= 200 && answer.status < 600, `HEAD ${path}: ${answer.status}`);
          assert.notEqual(answer.headers.connection, 'close', `HEAD ${path} closed the connection`);
        }
        // The marker: a GET right after the last HEAD is read from the very next byte.
        const health = await connection.exchange(request('GET', '/health'), 'GET');
        assert.equal(health.status, 200);
        assert.equal(JSON.parse(health.body.toString('utf8')).status, 'healthy');
      } finally {
        connection.close();
      }
    });
  }

  it('the reported request: HEAD on a route with only PUT, then a GET on the same connection', async () => {
    const connection = await RawConnection.open(port);
    try {
      const head = await connection.exchange(
        request('HEAD', '/api/v1/conversations/x/folder', authorized()) + request('GET', '/health'), 'HEAD');
      assert.equal(head.status, 404);
      assert.equal((await connection.read('GET')).status, 200);
    } finally {
      connection.close();
    }
  });

  it("Node's http client reads every HEAD answer without a parse error, on one reused socket", async () => {
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    try {
      const sockets = new Set<unknown>();
      const send = (method: string, path: string, headers: Record<string, string>) =>
        new Promise<{ status: number; body: string }>((resolve, reject) => {
          const outgoing = http.request({ host: '127.0.0.1', port, path, method, headers, agent }, (response) => {
            sockets.add(response.socket);
            let body = '';
            response.setEncoding('utf8');
            response.on('data', (chunk: string) => { body += chunk; });
            response.on('end', () => resolve({ status: response.statusCode!, body }));
          });
          outgoing.on('error', (error) => reject(new Error(`${method} ${path}: ${(error as NodeJS.ErrnoException).code ?? error.message}`)));
          outgoing.end();
        });
      for (const path of paths) {
        for (const headers of [authorized(), {}]) {
          const answer = await send('HEAD', path, headers);
          assert.equal(answer.body, '', `HEAD ${path}`);
        }
      }
      assert.equal((await send('GET', '/health', {})).status, 200);
      assert.equal(sockets.size, 1, 'every request went over the one keep-alive socket');
    } finally {
      agent.destroy();
    }
  });

  describe('requests the HTTP parser refuses', () => {
    const oversized = `/api/v1/conversations/x/folder?q=${'a'.repeat(20_000)}`;

    it('HEAD with a head over the size limit: 431, headers only, then the connection closes', async () => {
      const connection = await RawConnection.open(port);
      try {
        const answer = await connection.exchange(request('HEAD', oversized, authorized()), 'HEAD');
        assert.equal(answer.status, 431);
        assert.equal(answer.headers.connection, 'close');
        await connection.closed();
      } finally {
        connection.close();
      }
    });

    it('GET with a head over the size limit: 431 with the error envelope', async () => {
      const answer = await server.api('GET', oversized);
      assert.equal(answer.status, 431);
      assert.match(answer.headers.get('content-type') ?? '', /application\/json/);
      assert.deepEqual(answer.body, { error: 'The request line and headers are too large', code: 'PAYLOAD_TOO_LARGE' });
    });

    it('HEAD followed by bytes that are no request: the HEAD is answered, then a bodiless 400, then close', async () => {
      // What Node's client sends for `http.request({method: 'HEAD'}).end('{}')`: a body without framing.
      const connection = await RawConnection.open(port);
      try {
        const head = await connection.exchange(`${request('HEAD', '/api/v1/conversations/x/folder', authorized())}{}`, 'HEAD');
        assert.equal(head.status, 404);
        const refusal = await connection.read('HEAD');
        assert.equal(refusal.status, 400);
        assert.equal(refusal.headers['content-length'], '0');
        await connection.closed();
      } finally {
        connection.close();
      }
    });

    it("Node's http client: a HEAD sent with a body, or with an oversized head, parses", async () => {
      // Node's client frames no body for HEAD: the server sees `{}` as the start of a next request.
      const send = (path: string, body?: string) => new Promise<number>((resolve, reject) => {
        const agent = new http.Agent({ keepAlive: true });
        let status = 0;
        const fail = (error: Error) => reject(new Error(`HEAD ${path.slice(0, 60)}: ${(error as NodeJS.ErrnoException).code ?? error.message}`));
        const outgoing = http.request({ host: '127.0.0.1', port, path, method: 'HEAD', headers: authorized(), agent }, (response) => {
          status = response.statusCode!;
          response.resume();
        });
        outgoing.on('error', fail);
        // A byte after the answer raises its error on the request a while later: wait for the connection to end.
        outgoing.on('socket', (socket) => socket.on('close', () => { agent.destroy(); setTimeout(() => resolve(status), 50); }));
        setTimeout(() => agent.destroy(), 1000);
        outgoing.end(body);
      });
      assert.equal(await send('/api/v1/conversations/x/folder', '{}'), 404);
      assert.equal(await send(oversized), 431);
    });

    it('a malformed request with no HEAD in sight keeps the error envelope', async () => {
      const connection = await RawConnection.open(port);
      try {
        const answer = await connection.exchange('GET /health HTTP/1.1\r\nHost 127.0.0.1\r\n\r\n', 'GET');
        assert.equal(answer.status, 400);
        assert.deepEqual(JSON.parse(answer.body.toString('utf8')), { error: 'The request is not valid HTTP', code: 'VALIDATION_ERROR' });
        await connection.closed();
      } finally {
        connection.close();
      }
    });
  });
});
