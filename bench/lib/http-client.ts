import { Agent, request as httpRequest } from 'node:http';

export interface HttpResponse {
  status: number;
  body: string;
  /** The Retry-After header, when the answer has one (a graceful 503 must). */
  retryAfter?: string;
}

export interface HttpClient {
  request(method: string, path: string, body?: string): Promise<HttpResponse>;
  close(): void;
}

/**
 * A minimal keep-alive HTTP/1.1 client on node:http (cheaper per request than
 * fetch, which matters when client and server share two cores). It refuses
 * any host but 127.0.0.1: benchmarks only ever talk to the local controller.
 */
export function createHttpClient(baseUrl: string, apiKey: string, maxSockets = 16): HttpClient {
  const url = new URL(baseUrl);
  if (url.protocol !== 'http:' || url.hostname !== '127.0.0.1') {
    throw new Error(`bench HTTP client only talks to http://127.0.0.1, not ${baseUrl}`);
  }
  const agent = new Agent({ keepAlive: true, maxSockets, maxFreeSockets: maxSockets });
  const port = Number(url.port);
  const auth = `Bearer ${apiKey}`;

  return {
    request(method, path, body) {
      const attempt = (retried: boolean) => new Promise<HttpResponse>((resolve, reject) => {
        const headers: Record<string, string | number> = { authorization: auth, accept: 'application/json' };
        if (body !== undefined) {
          headers['content-type'] = 'application/json';
          headers['content-length'] = Buffer.byteLength(body);
        }
        // The retry takes a connection of its own: the pool's other idle sockets may be as stale as the first.
        const req = httpRequest({ host: '127.0.0.1', port, method, path, agent: retried ? false : agent, headers }, (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (chunk: Buffer) => chunks.push(chunk));
          res.on('end', () => {
            const retryAfter = res.headers['retry-after'];
            resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8'), ...(retryAfter ? { retryAfter } : {}) });
          });
          res.on('error', reject);
        });
        req.on('error', (error: NodeJS.ErrnoException) => {
          // A kept-alive socket the server closed while this client was busy elsewhere (loading a million vectors
          // for the exact baselines took ~90 s): the request never reached the server. Node's documented remedy
          // is to send it again on a new socket, once (not the pool's next idle one: six of 300 semantic questions
          // failed so after that wait, at 1M on a slower machine).
          if (!retried && req.reusedSocket && (error.code === 'ECONNRESET' || error.code === 'EPIPE')) {
            attempt(true).then(resolve, reject);
            return;
          }
          reject(error);
        });
        req.end(body);
      });
      return attempt(false);
    },
    close: () => agent.destroy(),
  };
}
