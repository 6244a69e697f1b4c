import { Type } from 'typebox';
import { StringEnum } from '../../http/schema-types.js';
import { MAX_IMPORTANCE } from '../../domain/conversation.js';
import { Timestamp } from '../conversations/conversations.schemas.js';

export const MAX_EXECUTE_IDS = 1000;

export const DryRunBody = Type.Object({
  threshold_days: Type.Optional(Type.Integer({ minimum: 0, maximum: 36_500, default: 30,
    description: 'Suggest conversations neither read nor changed for this many days.' })),
  importance_threshold: Type.Optional(Type.Number({ minimum: 0, maximum: MAX_IMPORTANCE, default: 5.0,
    description: 'Idle conversations with importance_score <= this are recommended for archiving; the others are listed as keep.' })),
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 1000, default: 1000,
    description: 'Most suggestions returned; total counts all.' })),
}, { additionalProperties: false });

export const PruningSuggestionResponse = Type.Object({
  conversation_id: Type.String(),
  conversation_label: Type.String(),
  last_accessed: Timestamp,
  last_updated: Timestamp,
  message_count: Type.Integer(),
  token_estimate: Type.Integer({ description: 'Characters of all messages / 4' }),
  importance_score: Type.Number(),
  preview: Type.String({ description: 'First 100 characters of the first message' }),
  recommendation: StringEnum(['archive', 'keep']),
  reason: Type.String(),
});

export const DryRunResponse = Type.Object({
  suggestions: Type.Array(PruningSuggestionResponse, { description: 'archive first, then keep; oldest activity first' }),
  total: Type.Integer({ description: 'All idle conversations, also beyond limit' }),
  archive_count: Type.Integer({ description: 'Idle conversations recommended for archiving, also beyond limit' }),
  estimated_token_savings: Type.Integer({ description: 'Sum of token_estimate over the archive suggestions returned' }),
  threshold_days: Type.Integer(),
  importance_threshold: Type.Number(),
  idle_since: Timestamp,
});

export const ExecuteBody = Type.Object({
  conversation_ids: Type.Array(Type.String(), { minItems: 1, maxItems: MAX_EXECUTE_IDS }),
}, { additionalProperties: false });

/** The tool form of a dry run (memory_prune): the spec's field names around the same suggestions. */
export const PruneToolResponse = Type.Object({
  threshold_days: Type.Integer(),
  importance_threshold: Type.Number(),
  total_suggestions: Type.Integer({ description: 'All idle conversations, also beyond limit' }),
  estimated_token_savings: Type.Integer(),
  suggestions: DryRunResponse.properties.suggestions,
});
