import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { ForRequest } from '../../http/principal.js';
import { ErrorResponse } from '../conversations/conversations.schemas.js';
import type { LabelsService } from './labels.service.js';
import { SuggestLabelsBody, SuggestLabelsResponse } from './labels.schemas.js';

const tags = ['orchestration'];
const errors = { 400: ErrorResponse, 401: ErrorResponse, 404: ErrorResponse, 429: ErrorResponse };

export const labelRoutes: FastifyPluginAsyncTypebox<{ labels: ForRequest<LabelsService> }> = async (app, { labels }) => {
  app.post('/labels/suggest', {
    schema: { tags, summary: 'Suggest labels for a conversation', body: SuggestLabelsBody,
      response: { 200: SuggestLabelsResponse, ...errors } },
  }, async (request) => {
    const result = await labels(request).suggest(request.body.conversation_id, request.body.limit);
    return {
      conversation_id: result.conversationId,
      suggestions: result.suggestions.map((s) => ({
        label: s.label, confidence: s.confidence, is_existing: s.isExisting, reason: s.reason,
      })),
      sources: result.sources,
    };
  });
};
