import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type, type TSchema } from 'typebox';
import { Gauge } from 'prom-client';
import type { ConversationStore } from '../../ports/conversation-store.js';
import type { HttpMetrics } from '../../http/http-metrics.js';
import { ErrorResponse } from '../conversations/conversations.schemas.js';
import type { Clock } from '../../ports/clock.js';
import { runHealthChecks, type HealthCheck } from './health.js';
import { CachedValue } from './health-cache.js';
import type { DetailedHealthReport } from './detailed-health.js';

export interface SystemRouteOptions {
  store: ConversationStore;
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
  /** Extra statistics other features contribute (e.g. the embedding queue). */
  extraStats?: () => Promise<Record<string, unknown>>;
}

const HealthResponse = Type.Object({
  status: Type.Union([Type.Literal('healthy'), Type.Literal('unhealthy')]),
  timestamp: Type.String(),
  checks: Type.Record(Type.String(), Type.Object({
    status: Type.Union([Type.Literal('ok'), Type.Literal('error')]),
    latency_ms: Type.Number(),
    error: Type.Optional(Type.String()),
  }, { additionalProperties: true })),
  uptime_seconds: Type.Integer(),
});

const Nullable = <T extends TSchema>(schema: T) => Type.Union([schema, Type.Null()]);

const DetailedHealthResponse = Type.Object({
  ...HealthResponse.properties,
  database: Type.Object({
    status: Type.Union([Type.Literal('ok'), Type.Literal('error')]),
    driver: Type.String({ description: 'sqlite or postgres' }),
    error: Type.Optional(Type.String()),
  }),
  bridge: Type.Object({
    reachable: Type.Boolean({ description: 'The bridge answered HTTP (even if it reports itself unhealthy)' }),
    status: Type.Union([Type.Literal('ok'), Type.Literal('error')]),
    url: Type.String(),
    provider: Nullable(Type.String({ description: 'Embedding provider the bridge reports: builtin, ollama or openai' })),
    model: Nullable(Type.String()),
    error: Type.Optional(Type.String()),
  }),
  queue: Type.Object({
    pending: Type.Integer({ description: 'Messages waiting for their embedding' }),
    failed: Type.Integer(),
    oldest_pending_age_seconds: Nullable(Type.Integer({
      description: 'Age of the pending message that arrived first, by its timestamp (an imported message keeps its original time)',
    })),
    worker: Type.Object({
      running: Type.Boolean(),
      consecutive_failures: Type.Integer(),
      last_error: Nullable(Type.String()),
      last_success_at: Nullable(Type.String()),
    }),
  }),
  index: Type.Object({
    state: Type.Union([
      Type.Literal('empty'), Type.Literal('loading'), Type.Literal('catching_up'), Type.Literal('ready'), Type.Literal('failed'),
      Type.Literal('database'),
    ], {
      description: 'Catch-up of the local vector index after a start; database: the database searches its vectors itself (postgres)',
    }),
    indexed: Nullable(Type.Integer()),
    missing_vectors: Type.Integer({ description: 'Stored vectors not in the index yet' }),
    partial: Type.Boolean({ description: 'Semantic results may miss messages until the catch-up is done (and say so)' }),
  }),
  disk: Type.Object({
    path: Type.String({ description: 'The data dir' }),
    free_bytes: Nullable(Type.Integer({ description: 'Bytes this process may still write there' })),
    total_bytes: Nullable(Type.Integer()),
    error: Type.Optional(Type.String()),
  }),
  proxy: Type.Object({
    enabled: Type.Boolean(),
    spool_pending: Nullable(Type.Integer({ description: 'Chat exchanges spooled and not stored yet' })),
    spool_failed: Nullable(Type.Integer({ description: 'Exchanges that could not be stored, kept in proxy-spool/failed' })),
  }),
});

const StatsResponse = Type.Object({
  total_conversations: Type.Integer(),
  total_messages: Type.Integer(),
  storage_size_mb: Type.Number(),
  embeddings_count: Type.Integer(),
  uptime_seconds: Type.Integer(),
  requests_total: Type.Integer(),
  errors_total: Type.Integer({ description: 'Server errors since start: responses with status >= 500 other than 503' }),
  unavailable_total: Type.Integer({
    description: '503 responses since start: starting up, the bridge not ready or down, or load shed; not a fault of memsvc',
  }),
}, { additionalProperties: true });

export const systemRoutes: FastifyPluginAsyncTypebox<SystemRouteOptions> = async (app, options) => {
  const { store, checks, metrics, startedAt } = options;
  const health = new CachedValue(() => runHealthChecks(checks, startedAt, options.clock.now()), options.healthCacheMs, options.clock);

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
      description: 'Computed at most once per server.health_cache_ms (1 s): calls within that window get the same report.',
      response: { 200: HealthResponse, 503: HealthResponse },
    },
  }, async (_request, reply) => {
    const report = await health.get();
    return reply.code(report.status === 'healthy' ? 200 : 503).send(report);
  });

  app.get('/health/detailed', {
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
    config: { public: !options.metricsRequireKey },
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
  }, async () => {
    const current = await store.totals();
    return {
      total_conversations: current.conversations,
      total_messages: current.messages,
      storage_size_mb: Math.round((current.storageBytes / (1024 * 1024)) * 100) / 100,
      embeddings_count: current.embeddedMessages,
      uptime_seconds: Math.floor((Date.now() - startedAt) / 1000),
      requests_total: await metrics.requestsTotal(),
      errors_total: await metrics.serverErrorsTotal(),
      unavailable_total: await metrics.unavailableTotal(),
      ...(options.extraStats ? await options.extraStats() : {}),
    };
  });
};
