import type { FastifyInstance } from 'fastify';
import { Counter, Histogram, Registry, collectDefaultMetrics } from 'prom-client';

export interface HttpMetrics {
  registry: Registry;
  requestsTotal(): Promise<number>;
  /** 5xx answers other than 503: failures of memsvc itself. */
  serverErrorsTotal(): Promise<number>;
  /** 503 answers: starting up, a dependency (the bridge) not ready or down, or shedding load. */
  unavailableTotal(): Promise<number>;
}

/** A registry per app (tests build many apps) with request counts and latency by route and status. */
export function registerHttpMetrics(app: FastifyInstance, registry = new Registry()): HttpMetrics {
  collectDefaultMetrics({ register: registry, prefix: 'memsvc_' });
  const requests = new Counter({
    name: 'memsvc_http_requests_total',
    help: 'HTTP requests by method, route and status',
    labelNames: ['method', 'route', 'status_code'] as const,
    registers: [registry],
  });
  const errors = new Counter({
    name: 'memsvc_http_errors_total',
    help: 'HTTP responses with status >= 400, by route and status',
    labelNames: ['method', 'route', 'status_code'] as const,
    registers: [registry],
  });
  const duration = new Histogram({
    name: 'memsvc_http_request_duration_seconds',
    help: 'HTTP request latency by method, route and status',
    labelNames: ['method', 'route', 'status_code'] as const,
    buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
    registers: [registry],
  });
  let total = 0;
  let serverErrors = 0;
  let unavailable = 0;

  app.addHook('onResponse', async (request, reply) => {
    // The route pattern, never the raw URL, keeps label cardinality bounded.
    const labels = {
      method: request.method,
      route: request.routeOptions.url ?? 'unmatched',
      status_code: String(reply.statusCode),
    };
    requests.inc(labels);
    duration.observe(labels, reply.elapsedTime / 1000);
    total += 1;
    if (reply.statusCode >= 400) errors.inc(labels);
    if (reply.statusCode === 503) unavailable += 1;
    else if (reply.statusCode >= 500) serverErrors += 1;
  });

  return {
    registry, requestsTotal: async () => total,
    serverErrorsTotal: async () => serverErrors, unavailableTotal: async () => unavailable,
  };
}
