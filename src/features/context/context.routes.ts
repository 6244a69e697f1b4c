import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { ForRequest } from '../../http/principal.js';
import { ErrorResponse } from '../conversations/conversations.schemas.js';
import { AssembleContextBody, AssembleContextResponse } from './context.schemas.js';
import type { ContextService } from './context.service.js';
import { toContextMessage, toContextText } from './context.mappers.js';

const tags = ['context'];
const errors = { 400: ErrorResponse, 401: ErrorResponse, 429: ErrorResponse, 503: ErrorResponse };

export const contextRoutes: FastifyPluginAsyncTypebox<{ context: ForRequest<ContextService> }> = async (app, { context }) => {
  app.post('/context/assemble', {
    schema: {
      tags,
      summary: 'Assemble a ranked, token-budgeted context for an LLM prompt',
      description: 'Array of messages with citation metadata by default; one context string with format "text" ' +
        '(or when max_tokens is given). See docs/api.md, "Context assembly".',
      body: AssembleContextBody,
      response: { 200: AssembleContextResponse, ...errors },
    },
  }, async (request) => {
    const assembled = await context(request).assemble(request.body);
    if (assembled.request.format === 'messages') return assembled.messages.map(toContextMessage);
    return toContextText(assembled);
  });
};
