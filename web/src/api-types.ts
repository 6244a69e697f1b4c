/**
 * Shapes of the public HTTP API, inferred from the server's own route schemas
 * (src/features/<name>/<name>.schemas.ts): types only, nothing of the server is bundled.
 */
import type { Static } from 'typebox';
import type {
  ConversationListItem as ConversationListItemSchema,
  ConversationResponse,
  FolderTreeResponse,
  ListConversationsQuery,
  MessageResponse,
  Role as RoleSchema,
} from '../../src/features/conversations/conversations.schemas.js';
import type {
  FullTextHit as FullTextHitSchema,
  QueryResponse as QueryResponseSchema,
  SearchFilters as SearchFiltersSchema,
  SearchHit as SearchHitSchema,
} from '../../src/features/search/search.schemas.js';
import type { ContextMessage as ContextMessageSchema } from '../../src/features/context/context.schemas.js';
import type { SummarizeBody, SummaryResponse } from '../../src/features/summaries/summaries.schemas.js';
import type { LabelSuggestionResponse } from '../../src/features/labels/labels.schemas.js';
import type { DryRunResponse, PruningSuggestionResponse } from '../../src/features/pruning/pruning.schemas.js';
import type { EmbeddingStatusResponse } from '../../src/features/embeddings/embeddings.schemas.js';
import type { HealthResponse, StatsResponse } from '../../src/features/system/system.schemas.js';
import type { ActivityResponse } from '../../src/features/ui/ui.schemas.js';

export type { SearchMode } from '../../src/features/search/search.schemas.js';

export type Role = Static<typeof RoleSchema>;
export type EmbeddingState = Message['embedding_status'];
export type SortField = Static<typeof ListConversationsQuery>['sort'];
export type SummaryLevel = Static<typeof SummarizeBody>['level'];

export type Message = Static<typeof MessageResponse>;
export type Conversation = Static<typeof ConversationResponse>;
export type ConversationListItem = Static<typeof ConversationListItemSchema>;

/** A page of any list (conversations, messages, search hits). */
export interface Page<T> {
  results: T[];
  total: number;
  page: number;
  page_size: number;
}

export type FolderCount = Static<typeof FolderTreeResponse>['folders'][number];
export type SearchFilters = Static<typeof SearchFiltersSchema>;
export type SearchHit = Static<typeof SearchHitSchema>;
export type QueryResponse = Static<typeof QueryResponseSchema>;
export type FullTextHit = Static<typeof FullTextHitSchema>;
export type ContextMessage = Static<typeof ContextMessageSchema>;
export type Summary = Static<typeof SummaryResponse>;
export type LabelSuggestion = Static<typeof LabelSuggestionResponse>;
export type PruningSuggestion = Static<typeof PruningSuggestionResponse>;
export type DryRun = Static<typeof DryRunResponse>;
export type EmbeddingStatus = Static<typeof EmbeddingStatusResponse>;
export type Stats = Static<typeof StatsResponse>;
export type Health = Static<typeof HealthResponse>;
export type Activity = Static<typeof ActivityResponse>;
