import { toSearchHitResponse } from '../../features/search/search.mappers.js';
import { QueryBody, SearchToolResponse } from '../../features/search/search.schemas.js';
import { defineTool } from '../tool-definition.js';

export const searchTool = defineTool({
  name: 'memory_search',
  description: 'Search stored messages by meaning and words; returns ranked hits with their conversation.',
  inputSchema: QueryBody,
  outputSchema: SearchToolResponse,
  bind: ({ search }) => async (input) => {
    const result = await search.query(input);
    return {
      query: input.query, total_results: result.total, limit: input.limit, offset: input.offset, mode: result.mode,
      results: result.hits.map(toSearchHitResponse),
    };
  },
});
