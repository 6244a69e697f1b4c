import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { ForRequest } from '../../http/principal.js';
import { EmptyResponse, ErrorResponse } from '../conversations/conversations.schemas.js';
import { EmbeddingStatusResponse } from './embeddings.schemas.js';
import type { EmbeddingsService } from './embeddings.service.js';

const tags = ['embeddings'];

export const embeddingRoutes: FastifyPluginAsyncTypebox<{ embeddings: ForRequest<EmbeddingsService> }> = async (app, { embeddings }) => {
  app.post('/rebuild-embeddings', {
    config: { admin: true },
    schema: { tags, summary: 'Re-embed every message in the background (202)',
      response: { 202: EmptyResponse, 401: ErrorResponse, 403: ErrorResponse } },
  }, async (request, reply) => {
    await embeddings(request).startRebuild();
    return reply.code(202).send();
  });

  app.get('/embeddings/status', {
    schema: { tags, summary: 'Embedding queue, model and rebuild progress', response: { 200: EmbeddingStatusResponse, 401: ErrorResponse } },
  }, async (request) => embeddings(request).status());
};
