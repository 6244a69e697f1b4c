import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { ForRequest } from '../../http/principal.js';
import { ErrorResponse } from '../conversations/conversations.schemas.js';
import type { SummariesService } from './summaries.service.js';
import { toSummaryResponse } from './summaries.mappers.js';
import { SummarizeBody, SummaryResponse } from './summaries.schemas.js';

const tags = ['orchestration'];
const errors = { 400: ErrorResponse, 401: ErrorResponse, 404: ErrorResponse, 429: ErrorResponse, 503: ErrorResponse };

export const summaryRoutes: FastifyPluginAsyncTypebox<{ summaries: ForRequest<SummariesService> }> = async (app, { summaries }) => {
  app.post('/summarize', {
    schema: { tags, summary: 'Summarize a conversation (daily, weekly or monthly)', body: SummarizeBody,
      response: { 200: SummaryResponse, ...errors } },
  }, async (request) => {
    const { conversation_id: id, level, refresh } = request.body;
    return toSummaryResponse(await summaries(request).summarize(id, level, { refresh }));
  });
};
