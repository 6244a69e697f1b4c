import { toContextText } from '../../features/context/context.mappers.js';
import { AssembleContextTextBody, ContextText } from '../../features/context/context.schemas.js';
import { defineTool } from '../tool-definition.js';

export const assembleContextTool = defineTool({
  name: 'memory_assemble_context',
  description: 'Relevant past messages for a question or task, ranked and packed into a token budget, as prompt-ready text with sources.',
  inputSchema: AssembleContextTextBody,
  outputSchema: ContextText,
  bind: ({ context }) => context && (async (input) => toContextText(await context.assemble({ ...input, format: 'text' }))),
});
