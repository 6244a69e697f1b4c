import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { ErrorResponse } from '../conversations/conversations.schemas.js';
import type { SummariesService, SummaryResult } from './summaries.service.js';
import { SummarizeBody, SummaryResponse } from './summaries.schemas.js';

const tags = ['orchestration'];
const errors = { 400: ErrorResponse, 401: ErrorResponse, 404: ErrorResponse, 429: ErrorResponse, 503: ErrorResponse };

export const toSummaryResponse = (result: SummaryResult) => ({
  conversation_id: result.conversationId,
  level: result.level,
  summary: result.summary,
  generated_at: result.generatedAt,
  window_start: result.windowStart,
  window_end: result.windowEnd,
  anchored_on: result.anchoredOn,
  source_count: result.sourceCount,
  word_count: result.wordCount,
  model: result.model,
  cached: result.cached,
  ...(result.note !== undefined ? { note: result.note } : {}),
});

export const summaryRoutes: FastifyPluginAsyncTypebox<{ summaries: SummariesService }> = async (app, { summaries }) => {
  app.post('/summarize', {
    schema: { tags, summary: 'Summarize a conversation (daily, weekly or monthly)', body: SummarizeBody,
      response: { 200: SummaryResponse, ...errors } },
  }, async (request) => {
    const { conversation_id: id, level, refresh } = request.body;
    return toSummaryResponse(await summaries.summarize(id, level, { refresh }));
  });
};
