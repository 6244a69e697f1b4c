import { toDryRunResponse } from '../../features/pruning/pruning.mappers.js';
import { DryRunBody, PruneToolResponse } from '../../features/pruning/pruning.schemas.js';
import { defineTool } from '../tool-definition.js';

export const pruneTool = defineTool({
  name: 'memory_prune',
  description: 'Suggest idle, low-importance conversations to archive. Changes nothing.',
  inputSchema: DryRunBody,
  outputSchema: PruneToolResponse,
  bind: ({ pruning }) => async (input) => {
    const plan = toDryRunResponse(await pruning.dryRun({
      thresholdDays: input.threshold_days, importanceThreshold: input.importance_threshold, limit: input.limit,
    }));
    return {
      threshold_days: plan.threshold_days,
      importance_threshold: plan.importance_threshold,
      total_suggestions: plan.total,
      estimated_token_savings: plan.estimated_token_savings,
      suggestions: plan.suggestions,
    };
  },
});
