import { Type, type Static } from 'typebox';
import { AuthorName, Metadata, Role, Timestamp } from '../conversations/conversations.schemas.js';
import { StringEnum } from '../../http/schema-types.js';
import { CONTEXT_RANKINGS } from './context-ranking.js';

export const CONTEXT_FORMATS = ['messages', 'text'] as const;
export type ContextFormat = (typeof CONTEXT_FORMATS)[number];

export const DEFAULT_CONTEXT_BUDGET = 4000;
export const MIN_CONTEXT_BUDGET = 100;
export const MAX_CONTEXT_BUDGET = 200_000;
export const MAX_PREFERRED_LABELS = 100;
export const MAX_EXCLUDED_FOLDERS = 100;

const Budget = (description: string) =>
  Type.Integer({ minimum: MIN_CONTEXT_BUDGET, maximum: MAX_CONTEXT_BUDGET, description });

export const AssembleContextBody = Type.Object({
  query: Type.String({ minLength: 1, maxLength: 10_000, description: 'What the context is for; must not be blank.' }),
  preferred_labels: Type.Optional(Type.Array(Type.String({ minLength: 1, maxLength: 200 }), {
    maxItems: MAX_PREFERRED_LABELS, description: 'Conversation labels to boost (trimmed, case-insensitive). Default [].',
  })),
  context_budget: Type.Optional(Budget(
    `Tokens (1 token = 4 characters), ${MIN_CONTEXT_BUDGET}..${MAX_CONTEXT_BUDGET}; 15% is kept free for a system prompt. ` +
    `Default ${DEFAULT_CONTEXT_BUDGET}.`)),
  excluded_folders: Type.Optional(Type.Array(Type.String({ maxLength: 1024 }), {
    maxItems: MAX_EXCLUDED_FOLDERS, description: 'Folders whose subtrees are left out. Default [].',
  })),
  ranking: Type.Optional(StringEnum(CONTEXT_RANKINGS, {
    description: 'relevance (default): query relevance from full-text and vectors, plus a little importance, recency ' +
      'and label match; spec: 0.5*importance + 0.3*recency + 0.2*label_match over the spec\'s recall',
  })),
  format: Type.Optional(StringEnum(CONTEXT_FORMATS, {
    description: 'messages (default): an array of messages; text: one context string with token_count, ' +
      'conversation_ids, message_count and sources. Default text when max_tokens is given.',
  })),
  max_tokens: Type.Optional(Budget('The text variant\'s name for context_budget; give one of the two.')),
  include_metadata: Type.Optional(Type.Boolean({
    description: 'text format: group the messages under a [label | folder | date] line per conversation and day. Default true.',
  })),
}, { additionalProperties: false });
export type AssembleContextBody = Static<typeof AssembleContextBody>;

export const ContextMessage = Type.Object({
  id: Type.String(),
  conversation_id: Type.String(),
  role: Role,
  name: AuthorName,
  content: Type.String(),
  timestamp: Timestamp,
  embedding_id: Type.Union([Type.String(), Type.Null()]),
  metadata: Type.Object({
    label: Type.String(),
    folder: Type.String(),
    timestamp: Timestamp,
    relevance_score: Type.Number({ minimum: 0, maximum: 1, description: 'The ranking score, 0..1' }),
    importance_score: Type.Integer(),
    message_metadata: Metadata,
  }),
});

export const ContextSource = Type.Object({
  message_id: Type.String(),
  conversation_id: Type.String(),
  label: Type.String(),
  folder: Type.String(),
  timestamp: Timestamp,
  relevance_score: Type.Number({ minimum: 0, maximum: 1 }),
});

export const ContextText = Type.Object({
  context: Type.String({ description: 'The messages as "role: content" lines; with metadata grouped per conversation and day under [label | folder | date], the best message\'s group first, each in conversation order' }),
  token_count: Type.Integer({ description: 'Estimated tokens of context (characters / 4, rounded up)' }),
  conversation_ids: Type.Array(Type.String()),
  message_count: Type.Integer(),
  sources: Type.Array(ContextSource),
});

export const AssembleContextResponse = Type.Union([Type.Array(ContextMessage), ContextText]);

/** The tool form (memory_assemble_context): always the text variant, so no format and no max_tokens alias. */
export const AssembleContextTextBody = Type.Omit(AssembleContextBody, ['format', 'max_tokens'], { additionalProperties: false });
export type AssembleContextTextBody = Static<typeof AssembleContextTextBody>;
