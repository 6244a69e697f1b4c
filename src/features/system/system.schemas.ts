import { Type } from 'typebox';

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
