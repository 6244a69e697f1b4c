import type { SummaryResult } from './summaries.service.js';

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
