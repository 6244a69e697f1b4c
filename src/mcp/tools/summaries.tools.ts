import { toSummaryResponse } from '../../features/summaries/summaries.mappers.js';
import { SummarizeBody, SummaryResponse } from '../../features/summaries/summaries.schemas.js';
import { defineTool } from '../tool-definition.js';

export const summarizeTool = defineTool({
  name: 'memory_summarize',
  description: 'A summary of a conversation over the last day, week or month (reused while nothing new arrived).',
  inputSchema: SummarizeBody,
  outputSchema: SummaryResponse,
  bind: ({ summaries }) => summaries && (async (input) =>
    toSummaryResponse(await summaries.summarize(input.conversation_id, input.level, { refresh: input.refresh }))),
});
