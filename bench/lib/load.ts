import type { HttpClient, HttpResponse } from './http-client.js';
import { summarize, type LatencySummary } from './stats.js';

export interface LoadRequest {
  method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  path: string;
  /** Serialised JSON; build bodies before the run so generating them is not measured. */
  body?: string;
}

export interface LoadOptions {
  client: HttpClient;
  /** Requests in flight at any time (one sequential loop per slot). */
  concurrency: number;
  /** Stop after this many measured requests... */
  maxRequests: number;
  /** ...or after this long, whichever comes first. */
  maxDurationMs: number;
  /** Unmeasured requests sent first (same concurrency), to warm caches, JIT and sockets. */
  warmupRequests?: number;
  /** The i-th request (i counts warm-up and measured requests together, from 0). */
  request: (i: number) => LoadRequest;
  /** Status that counts as success; default any 2xx. */
  expectStatus?: number;
  /** Sees every successful response (e.g. to collect created ids); not timed. */
  onResponse?: (i: number, response: HttpResponse) => void;
}

export interface LoadResult extends LatencySummary {
  concurrency: number;
  /** First few failures, for the report. */
  error_samples: string[];
}

/** Fixed-concurrency closed loop: each slot sends its next request as soon as the previous one answered. */
export async function runLoad(options: LoadOptions): Promise<LoadResult> {
  const { client, concurrency } = options;
  const isOk = (status: number) =>
    options.expectStatus === undefined ? status >= 200 && status < 300 : status === options.expectStatus;
  let next = 0;
  const errorSamples: string[] = [];

  const phase = async (limit: number, deadline: number, latencies: number[] | null) => {
    let errors = 0;
    const slot = async () => {
      while (next < limit && performance.now() < deadline) {
        const i = next;
        next += 1;
        const req = options.request(i);
        const start = performance.now();
        try {
          const response = await client.request(req.method, req.path, req.body);
          const elapsed = performance.now() - start;
          if (isOk(response.status)) {
            latencies?.push(elapsed);
            options.onResponse?.(i, response);
          } else {
            errors += 1;
            if (errorSamples.length < 5) errorSamples.push(`${req.method} ${req.path} -> ${response.status} ${response.body.slice(0, 200)}`);
          }
        } catch (error) {
          errors += 1;
          if (errorSamples.length < 5) errorSamples.push(`${req.method} ${req.path} -> ${(error as Error).message}`);
        }
      }
    };
    await Promise.all(Array.from({ length: concurrency }, slot));
    return errors;
  };

  const warmup = options.warmupRequests ?? 0;
  if (warmup > 0) await phase(warmup, Number.POSITIVE_INFINITY, null);
  const latencies: number[] = [];
  const start = performance.now();
  const errors = await phase(warmup + options.maxRequests, start + options.maxDurationMs, latencies);
  const wall = performance.now() - start;
  return { ...summarize(latencies, errors, wall), concurrency, error_samples: errorSamples };
}
