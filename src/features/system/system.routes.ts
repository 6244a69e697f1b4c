import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Gauge } from 'prom-client';
import type { ConversationStore } from '../../ports/conversation-store.js';
import type { HttpMetrics } from '../../http/http-metrics.js';
import type { ForRequest } from '../../http/principal.js';
import { ErrorResponse } from '../conversations/conversations.schemas.js';
import type { Clock } from '../../ports/clock.js';
import { DetailedHealthResponse, HealthResponse, StatsResponse } from './system.schemas.js';
import { runHealthChecks, type HealthCheck } from './health.js';
import { CachedValue } from './health-cache.js';
import type { DetailedHealthReport } from './detailed-health.js';

export interface SystemRouteOptions {
  /** The whole store: the gauges of /metrics. */
  store: ConversationStore;
  /** The store as the caller's scope sees it: /stats. */
  scopedStore: ForRequest<ConversationStore>;
  checks: readonly HealthCheck[];
  metrics: HttpMetrics;
  startedAt: number;
  clock: Clock;
  /** How long one computed /health report is served again (server.health_cache_ms). */
  healthCacheMs: number;
  /** GET /health/detailed (behind the key). */
  detailedHealth: () => Promise<DetailedHealthReport>;
  /** metrics.require_key: /metrics needs the API key. */
  metricsRequireKey: boolean;
  /** Extra statistics other features contribute (e.g. the embedding queue), in the caller's scope. */
  extraStats?: ForRequest<() => Promise<Record<string, unknown>>>;
}

/** How many times shorter an unhealthy /health report is kept than a healthy one. */
const UNHEALTHY_SHARE = 10;

export const systemRoutes: FastifyPluginAsyncTypebox<SystemRouteOptions> = async (app, options) => {
  const { store, checks, metrics, startedAt } = options;
  // An unhealthy report is kept a tenth as long: a starting service (the bridge not yet listening) or one that has
  // recovered reads healthy at once rather than up to health_cache_ms later.
  const health = new CachedValue(() => runHealthChecks(checks, startedAt, options.clock.now()),
    (report) => (report.status === 'healthy' ? options.healthCacheMs : options.healthCacheMs / UNHEALTHY_SHARE), options.clock);

  // Gauges read the store when scraped, so they are never stale and cost nothing between scrapes.
  new Gauge({
    name: 'memsvc_conversations_total', help: 'Stored conversations', registers: [metrics.registry],
    async collect() { this.set((await store.totals()).conversations); },
  });
  new Gauge({
    name: 'memsvc_messages_total', help: 'Stored messages', registers: [metrics.registry],
    async collect() { this.set((await store.totals()).messages); },
  });

  app.get('/health', {
    config: { public: true },
    schema: {
      tags: ['system'],
      summary: 'Health of each component (no auth)',
      description: 'Computed at most once per server.health_cache_ms (1 s), a tenth of that while unhealthy: calls within that window get the same report.',
      response: { 200: HealthResponse, 503: HealthResponse },
    },
  }, async (_request, reply) => {
    const report = await health.get();
    return reply.code(report.status === 'healthy' ? 200 : 503).send(report);
  });

  app.get('/health/detailed', {
    config: { admin: true },
    schema: {
      tags: ['system'],
      summary: 'Database, bridge, embedding queue, index catch-up, free disk and proxy spool (API key)',
      response: { 200: DetailedHealthResponse, 401: ErrorResponse, 503: DetailedHealthResponse },
    },
  }, async (_request, reply) => {
    const report = await options.detailedHealth();
    return reply.code(report.status === 'healthy' ? 200 : 503).send(report);
  });

  app.get('/metrics', {
    // Behind a key, only an admin's: the gauges count the whole store.
    config: { public: !options.metricsRequireKey, admin: true },
    schema: {
      tags: ['system'],
      summary: options.metricsRequireKey ? 'Prometheus metrics (API key: metrics.require_key)' : 'Prometheus metrics (no auth)',
      produces: ['text/plain'],
    },
  }, async (_request, reply) => {
    const text = await metrics.registry.metrics();
    return reply.type(metrics.registry.contentType).send(text);
  });

  app.get('/stats', {
    schema: { tags: ['system'], summary: 'Service statistics', response: { 200: StatsResponse, 401: ErrorResponse } },
  }, async (request) => {
    const current = await options.scopedStore(request).totals();
    return {
      total_conversations: current.conversations,
      total_messages: current.messages,
      storage_size_mb: Math.round((current.storageBytes / (1024 * 1024)) * 100) / 100,
      embeddings_count: current.embeddedMessages,
      uptime_seconds: Math.floor((Date.now() - startedAt) / 1000),
      requests_total: await metrics.requestsTotal(),
      errors_total: await metrics.serverErrorsTotal(),
      unavailable_total: await metrics.unavailableTotal(),
      ...(options.extraStats ? await options.extraStats(request)() : {}),
    };
  });
};
