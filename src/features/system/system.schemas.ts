import { Type, type TSchema } from 'typebox';

export const HealthResponse = Type.Object({
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

export const DetailedHealthResponse = Type.Object({
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

export const StatsResponse = Type.Object({
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
