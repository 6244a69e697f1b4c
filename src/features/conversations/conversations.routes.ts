import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { ForRequest } from '../../http/principal.js';
import type { ConversationService } from './conversations.service.js';
import {
  fromCreateConversationBody, toAppendMessagesResponse, toConversationResponse, toCreateConversationResponse, toListItem, toMessageResponse,
} from './conversations.mappers.js';
import {
  AppendMessagesBody,
  AppendMessagesResponse,
  ConversationIdParams,
  ConversationResponse,
  CountQuery,
  CountResponse,
  CreateConversationBody,
  CreateConversationResponse,
  EmptyResponse,
  ErrorResponse,
  FolderTreeResponse,
  GetConversationQuery,
  ListConversationsQuery,
  ListConversationsResponse,
  ListMessagesQuery,
  ListMessagesResponse,
  SetImportanceBody,
  UpdateFolderBody,
  UpdateLabelBody,
} from './conversations.schemas.js';

const tags = ['conversations'];
const errors = { 400: ErrorResponse, 401: ErrorResponse, 404: ErrorResponse, 429: ErrorResponse };

export const conversationRoutes: FastifyPluginAsyncTypebox<{ conversations: ForRequest<ConversationService> }> = async (
  app,
  { conversations },
) => {
  app.post('/conversations', {
    schema: { tags, summary: 'Create a conversation', body: CreateConversationBody,
      response: { 201: CreateConversationResponse, ...errors } },
  }, async (request, reply) => {
    const conversation = await conversations(request).create(fromCreateConversationBody(request.body));
    return reply.code(201).send(toCreateConversationResponse(conversation));
  });

  app.get('/conversations', {
    schema: { tags, summary: 'List conversations', querystring: ListConversationsQuery,
      response: { 200: ListConversationsResponse, ...errors } },
  }, async (request) => {
    const { page, page_size: pageSize, sort, order, ...filter } = request.query;
    const { items, total } = await conversations(request).list({
      offset: (page - 1) * pageSize, limit: pageSize, sort, order, filter,
    });
    return { results: items.map(toListItem), total, page, page_size: pageSize };
  });

  app.get('/conversations/count', {
    schema: { tags, summary: 'Count conversations (all, by label, or by folder subtree)', querystring: CountQuery,
      response: { 200: CountResponse, ...errors } },
  }, async (request) => conversations(request).count(request.query));

  app.get('/folders', {
    schema: { tags, summary: 'Folder tree with conversation counts', response: { 200: FolderTreeResponse, ...errors } },
  }, async (request) => ({ folders: await conversations(request).folderTree() }));

  app.get('/conversations/:id', {
    schema: { tags, summary: 'Get a conversation', params: ConversationIdParams, querystring: GetConversationQuery,
      response: { 200: ConversationResponse, ...errors } },
  }, async (request) => {
    const conversation = await conversations(request).get(request.params.id);
    const response = toConversationResponse(conversation);
    if (request.query.include !== 'messages') return response;
    const messages = await conversations(request).allMessages(conversation.id);
    return { ...response, messages: messages.map(toMessageResponse) };
  });

  app.put('/conversations/:id/label', {
    schema: { tags, summary: 'Update label and folder', params: ConversationIdParams, body: UpdateLabelBody,
      response: { 200: EmptyResponse, ...errors } },
  }, async (request, reply) => {
    await conversations(request).update(request.params.id, { label: request.body.label, folder: request.body.folder });
    return reply.code(200).send();
  });

  app.put('/conversations/:id/folder', {
    schema: { tags, summary: 'Move to a folder', params: ConversationIdParams, body: UpdateFolderBody,
      response: { 200: EmptyResponse, ...errors } },
  }, async (request, reply) => {
    await conversations(request).update(request.params.id, { folder: request.body.folder });
    return reply.code(200).send();
  });

  app.put('/conversations/:id/importance', {
    schema: { tags, summary: 'Set importance (1-10)', params: ConversationIdParams, body: SetImportanceBody,
      response: { 200: EmptyResponse, ...errors } },
  }, async (request, reply) => {
    await conversations(request).update(request.params.id, { importanceScore: request.body.importance_score });
    return reply.code(200).send();
  });

  app.put('/conversations/:id/pin', {
    schema: { tags, summary: 'Pin (importance 10)', params: ConversationIdParams, response: { 200: EmptyResponse, ...errors } },
  }, async (request, reply) => {
    await conversations(request).pin(request.params.id);
    return reply.code(200).send();
  });

  app.put('/conversations/:id/archive', {
    schema: { tags, summary: 'Archive', params: ConversationIdParams, response: { 200: EmptyResponse, ...errors } },
  }, async (request, reply) => {
    await conversations(request).setStatus(request.params.id, 'archived');
    return reply.code(200).send();
  });

  app.put('/conversations/:id/unarchive', {
    schema: { tags, summary: 'Restore an archived conversation to active', params: ConversationIdParams,
      response: { 200: EmptyResponse, ...errors } },
  }, async (request, reply) => {
    await conversations(request).setStatus(request.params.id, 'active');
    return reply.code(200).send();
  });

  app.delete('/conversations/:id', {
    schema: { tags, summary: 'Delete with all messages and embeddings', params: ConversationIdParams,
      response: { 200: EmptyResponse, ...errors } },
  }, async (request, reply) => {
    await conversations(request).delete(request.params.id);
    return reply.code(200).send();
  });

  app.post('/conversations/:id/messages', {
    schema: { tags, summary: 'Append messages', params: ConversationIdParams, body: AppendMessagesBody,
      response: { 201: AppendMessagesResponse, ...errors } },
  }, async (request, reply) => {
    const appended = await conversations(request).appendMessages(request.params.id, request.body.messages);
    return reply.code(201).send(toAppendMessagesResponse(appended));
  });

  app.get('/conversations/:id/messages', {
    schema: { tags, summary: 'Page through messages in order', params: ConversationIdParams,
      querystring: ListMessagesQuery, response: { 200: ListMessagesResponse, ...errors } },
  }, async (request) => {
    const { page, page_size: pageSize } = request.query;
    const { items, total } = await conversations(request).listMessages(request.params.id, {
      offset: (page - 1) * pageSize, limit: pageSize,
    });
    return { results: items.map(toMessageResponse), total, page, page_size: pageSize };
  });
};
