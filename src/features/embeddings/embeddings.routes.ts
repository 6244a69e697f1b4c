import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { ErrorResponse } from '../conversations/conversations.schemas.js';
import type { EmbeddingsService } from './embeddings.service.js';

const tags = ['embeddings'];

const StatusResponse = Type.Object({
  pending: Type.Integer(),
  done: Type.Integer(),
  failed: Type.Integer(),
  model: Type.Union([Type.String(), Type.Null()]),
  dimension: Type.Union([Type.Integer(), Type.Null()]),
  indexed: Type.Integer(),
  searchable: Type.Boolean({
    description: 'Every stored vector is in the index: nothing pending, nothing being inserted, no catch-up after a start running',
  }),
  index_catch_up: Type.Object({
    state: Type.String({ description: 'empty, loading (the saved graph), catching_up (adding the vectors it lacks), ready or failed' }),
    indexed: Type.Integer(),
    loaded_saved: Type.Union([Type.Boolean(), Type.Null()]),
    added: Type.Integer({ description: 'Stored vectors the saved graph lacked, added since the start' }),
    started_at: Type.Union([Type.String(), Type.Null()]),
    finished_at: Type.Union([Type.String(), Type.Null()]),
    error: Type.Union([Type.String(), Type.Null()]),
  }),
  model_mismatch: Type.Union([Type.Object({ recorded: Type.String(), current: Type.String() }), Type.Null()]),
  rebuild: Type.Union([Type.Object({
    started_at: Type.String(), total: Type.Integer(), done: Type.Integer(), complete: Type.Boolean(),
  }), Type.Null()]),
  worker: Type.Record(Type.String(), Type.Unknown()),
});

export const embeddingRoutes: FastifyPluginAsyncTypebox<{ embeddings: EmbeddingsService }> = async (app, { embeddings }) => {
  app.post('/rebuild-embeddings', {
    schema: { tags, summary: 'Re-embed every message in the background (202)',
      response: { 202: Type.Unsafe<undefined>({ description: 'Empty body' }), 401: ErrorResponse } },
  }, async (_request, reply) => {
    await embeddings.startRebuild();
    return reply.code(202).send();
  });

  app.get('/embeddings/status', {
    schema: { tags, summary: 'Embedding queue, model and rebuild progress', response: { 200: StatusResponse, 401: ErrorResponse } },
  }, async () => embeddings.status());
};
