import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { ForRequest } from '../../http/principal.js';
import { EmptyResponse, ErrorResponse } from '../conversations/conversations.schemas.js';
import type { PruningService } from './pruning.service.js';
import { toDryRunResponse } from './pruning.mappers.js';
import { DryRunBody, DryRunResponse, ExecuteBody } from './pruning.schemas.js';

const tags = ['orchestration'];
const errors = { 400: ErrorResponse, 401: ErrorResponse, 404: ErrorResponse, 429: ErrorResponse };

export const pruningRoutes: FastifyPluginAsyncTypebox<{ pruning: ForRequest<PruningService> }> = async (app, { pruning }) => {
  app.post('/prune/dry-run', {
    schema: { tags, summary: 'Suggest idle conversations to archive (changes nothing)', body: DryRunBody,
      response: { 200: DryRunResponse, ...errors } },
    // Every field has a default, so no body at all is the same as {}.
    preValidation: async (request) => { request.body ??= {} as never; },
  }, async (request) => {
    const body = request.body;
    return toDryRunResponse(await pruning(request).dryRun({
      thresholdDays: body.threshold_days, importanceThreshold: body.importance_threshold, limit: body.limit,
    }));
  });

  app.post('/prune/execute', {
    schema: { tags, summary: 'Archive the listed conversations (all or none)', body: ExecuteBody,
      response: { 200: EmptyResponse, ...errors } },
  }, async (request, reply) => {
    await pruning(request).execute(request.body.conversation_ids);
    return reply.code(200).send();
  });
};
