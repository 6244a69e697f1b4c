import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { ForRequest } from '../../http/principal.js';
import { ErrorResponse } from '../conversations/conversations.schemas.js';
import { toFullTextHitResponse, toSearchHitResponse } from './search.mappers.js';
import { FullTextBody, FullTextResponse, QueryBody, QueryResponse } from './search.schemas.js';
import type { SearchService } from './search.service.js';

const tags = ['search'];
const errors = { 400: ErrorResponse, 401: ErrorResponse, 429: ErrorResponse, 503: ErrorResponse };

export interface SearchRouteOptions {
  search: ForRequest<SearchService>;
  /** Messages stored but not embedded yet (in the caller's scope): a vector search cannot find them so far. */
  pendingEmbeddings?: ForRequest<() => Promise<number>>;
}

export const searchRoutes: FastifyPluginAsyncTypebox<SearchRouteOptions> = async (app, { search, pendingEmbeddings }) => {
  app.post('/query', {
    schema: { tags, summary: 'Search messages by meaning, words or both', body: QueryBody,
      response: { 200: QueryResponse, ...errors } },
  }, async (request) => {
    const { query, limit, offset, filters, mode } = request.body;
    const result = await search(request).query({ query, limit, offset, filters, mode });
    const vectors = mode !== 'keyword' && pendingEmbeddings;
    return {
      ...(vectors ? { pending_embeddings: await pendingEmbeddings(request)() } : {}),
      results: result.hits.map(toSearchHitResponse),
      total: result.total,
      page: Math.floor(offset / limit) + 1,
      page_size: limit,
      mode: result.mode,
      ...(result.partial ? { partial: true } : {}),
    };
  });

  app.post('/search/fts', {
    schema: { tags, summary: 'Full-text search (words, phrases, prefix*, AND, OR, NOT; the same on every storage driver)', body: FullTextBody,
      response: { 200: FullTextResponse, ...errors } },
  }, async (request) => {
    const result = await search(request).fullText(request.body);
    return { results: result.hits.map(toFullTextHitResponse), total: result.total };
  });
};
