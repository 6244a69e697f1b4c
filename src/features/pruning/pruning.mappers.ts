import type { PruningPlan } from './pruning.service.js';

export const toDryRunResponse = (plan: PruningPlan) => ({
  suggestions: plan.suggestions.map((s) => ({
    conversation_id: s.conversationId,
    conversation_label: s.conversationLabel,
    last_accessed: s.lastAccessed,
    last_updated: s.lastUpdated,
    message_count: s.messageCount,
    token_estimate: s.tokenEstimate,
    importance_score: s.importanceScore,
    preview: s.preview,
    recommendation: s.recommendation,
    reason: s.reason,
  })),
  total: plan.total,
  archive_count: plan.archiveCount,
  estimated_token_savings: plan.estimatedTokenSavings,
  threshold_days: plan.thresholdDays,
  importance_threshold: plan.importanceThreshold,
  idle_since: plan.idleSince,
});
