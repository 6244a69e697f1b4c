import { Type, type Static } from 'typebox';
import { StringEnum } from '../../http/schema-types.js';
import { Timestamp } from '../conversations/conversations.schemas.js';

export const SummarizeBody = Type.Object({
  conversation_id: Type.String({ description: 'UUID of the conversation' }),
  level: StringEnum(['daily', 'weekly', 'monthly'], {
    description: 'daily: last 24 h (~200 words); weekly: 7 daily summaries (~500); monthly: 4 weekly summaries (~1000)',
  }),
  refresh: Type.Optional(Type.Boolean({ description: 'Regenerate even when a stored summary of the same messages exists.' })),
}, { additionalProperties: false });
export type SummarizeBody = Static<typeof SummarizeBody>;

export const SummaryResponse = Type.Object({
  conversation_id: Type.String(),
  level: Type.String(),
  summary: Type.String({ description: 'Empty when the window holds no messages (see note).' }),
  generated_at: Timestamp,
  window_start: Timestamp,
  window_end: Timestamp,
  anchored_on: StringEnum(['now', 'newest_message'], {
    description: 'The window ends now, or at the newest message when nothing was said in the window up to now.',
  }),
  source_count: Type.Integer({ description: 'Messages in the window' }),
  word_count: Type.Integer(),
  model: Type.Union([Type.String(), Type.Null()], { description: 'What produced the summary (the bridge decides).' }),
  cached: Type.Boolean({ description: 'Reused: the window holds the same messages as when it was generated.' }),
  note: Type.Optional(Type.String()),
});
