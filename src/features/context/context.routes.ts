import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { ErrorResponse } from '../conversations/conversations.schemas.js';
import { renderContext, type SelectedMessage } from './context-selection.js';
import { estimateTokens } from '../../domain/token-count.js';
import { AssembleContextBody, AssembleContextResponse } from './context.schemas.js';
import type { ContextService } from './context.service.js';

const tags = ['context'];
const errors = { 400: ErrorResponse, 401: ErrorResponse, 429: ErrorResponse, 503: ErrorResponse };

export const contextRoutes: FastifyPluginAsyncTypebox<{ context: ContextService }> = async (app, { context }) => {
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
    const assembled = await context.assemble(request.body);
    if (assembled.request.format === 'messages') return assembled.messages.map(toContextMessage);
    const text = renderContext(assembled.messages, assembled.request.includeMetadata);
    return {
      context: text,
      token_count: estimateTokens(text),
      conversation_ids: [...new Set(assembled.messages.map((message) => message.hit.conversationId))],
      message_count: assembled.messages.length,
      sources: assembled.messages.map(({ hit, score }) => ({
        message_id: hit.messageId,
        conversation_id: hit.conversationId,
        label: hit.label,
        folder: hit.folder,
        timestamp: hit.timestamp,
        relevance_score: score,
      })),
    };
  });
};

export const toContextMessage = ({ hit, score }: SelectedMessage) => ({
  id: hit.messageId,
  conversation_id: hit.conversationId,
  role: hit.role,
  content: hit.content,
  timestamp: hit.timestamp,
  embedding_id: hit.embeddingId,
  metadata: {
    label: hit.label,
    folder: hit.folder,
    timestamp: hit.timestamp,
    relevance_score: score,
    importance_score: hit.importanceScore,
    message_metadata: hit.metadata,
  },
});
