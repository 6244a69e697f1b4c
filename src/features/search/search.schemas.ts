import { Type, type Static } from 'typebox';
import { StringEnum } from '../../http/schema-types.js';
import { MAX_IMPORTANCE } from '../../domain/conversation.js';
import { AuthorName } from '../conversations/conversations.schemas.js';
import { MAX_QUERY_CHARS, MAX_QUERY_TERMS } from '../../domain/full-text-query.js';

export const SEARCH_MODES = ['hybrid', 'semantic', 'keyword'] as const;
export type SearchMode = (typeof SEARCH_MODES)[number];

export const SearchFilters = Type.Object({
  folder: Type.Optional(Type.String({ description: 'Folder and its subfolders' })),
  label: Type.Optional(Type.String()),
  importance_min: Type.Optional(Type.Integer({ minimum: 1, maximum: MAX_IMPORTANCE })),
  importance_max: Type.Optional(Type.Integer({ minimum: 1, maximum: MAX_IMPORTANCE })),
  date_from: Type.Optional(Type.String({ description: 'Message timestamp lower bound, inclusive (ISO 8601; without a zone, UTC)' })),
  date_to: Type.Optional(Type.String({ description: 'Message timestamp upper bound, inclusive (ISO 8601; without a zone, UTC)' })),
  archived: Type.Optional(Type.Boolean({ description: 'true: only archived; false: only active; absent: both' })),
}, { additionalProperties: false });
export type SearchFilters = Static<typeof SearchFilters>;

export const QueryBody = Type.Object({
  query: Type.String({ minLength: 1, maxLength: 10_000 }),
  limit: Type.Integer({ minimum: 1, default: 10, description: 'At most limits.max_query_results (1000)' }),
  offset: Type.Integer({ minimum: 0, default: 0, description: 'offset + limit may not exceed max_query_results' }),
  filters: Type.Optional(Type.Union([SearchFilters, Type.Null()])),
  mode: Type.Optional(StringEnum(SEARCH_MODES, {
    description: 'hybrid (default: full-text + vectors, fused), semantic (vectors only) or keyword (full-text only)',
  })),
}, { additionalProperties: false });
export type QueryBody = Static<typeof QueryBody>;

export const SearchHit = Type.Object({
  conversation_id: Type.String(),
  message_id: Type.String(),
  score: Type.Number({ minimum: 0, maximum: 1 }),
  content: Type.String(),
  metadata: Type.Object({
    role: Type.String(),
    name: AuthorName,
    position: Type.Integer(),
    importance_score: Type.Integer(),
    status: Type.String(),
    embedding_id: Type.Union([Type.String(), Type.Null()]),
    message_metadata: Type.Union([Type.Record(Type.String(), Type.Unknown()), Type.Null()]),
  }),
  label: Type.String(),
  folder: Type.String(),
  timestamp: Type.String(),
});

export const QueryResponse = Type.Object({
  results: Type.Array(SearchHit),
  total: Type.Integer({ description: 'Ranked matches available for paging (at most max_query_results)' }),
  page: Type.Integer(),
  page_size: Type.Integer(),
  mode: StringEnum(SEARCH_MODES),
  pending_embeddings: Type.Optional(Type.Integer({
    description: 'semantic and hybrid: messages stored but not embedded yet, which vectors cannot find so far',
  })),
  partial: Type.Optional(Type.Boolean({
    description: 'true while the vector index is still catching up after a start: semantic results may miss messages',
  })),
});

export const FullTextBody = Type.Object({
  query: Type.String({ minLength: 1, maxLength: MAX_QUERY_CHARS,
    description: `Words, "exact phrases", prefix*, AND, OR, NOT, parentheses; at most ${MAX_QUERY_TERMS} terms` }),
  limit: Type.Integer({ minimum: 1, default: 10 }),
  offset: Type.Integer({ minimum: 0, default: 0 }),
  filters: Type.Optional(Type.Union([SearchFilters, Type.Null()])),
}, { additionalProperties: false });

export const FullTextHit = Type.Object({
  id: Type.String(),
  conversation_id: Type.String(),
  role: Type.String(),
  name: AuthorName,
  content: Type.String(),
  timestamp: Type.String(),
  embedding_id: Type.Union([Type.String(), Type.Null()]),
  metadata: Type.Union([Type.Record(Type.String(), Type.Unknown()), Type.Null()]),
  score: Type.Number({ description: 'BM25 relevance scaled to 0..1 by the best match' }),
  label: Type.String(),
  folder: Type.String(),
});

export const FullTextResponse = Type.Object({
  results: Type.Array(FullTextHit),
  total: Type.Integer({ description: 'Matches (counted up to max_query_results)' }),
});

/** The tool form of a query (memory_search): the spec's fields around the same hits. */
export const SearchToolResponse = Type.Object({
  query: Type.String(),
  total_results: Type.Integer({ description: 'Ranked matches available for paging (at most max_query_results)' }),
  limit: Type.Integer(),
  offset: Type.Integer(),
  mode: StringEnum(SEARCH_MODES),
  results: Type.Array(SearchHit),
});
