import type { Static, TObject } from 'typebox';
import type { ConversationService } from '../features/conversations/conversations.service.js';
import type { PruningService } from '../features/pruning/pruning.service.js';
import type { SearchService } from '../features/search/search.service.js';
import type { ContextService } from '../features/context/context.service.js';
import type { SummariesService } from '../features/summaries/summaries.service.js';

export interface MemoryToolDeps {
  conversations: ConversationService;
  search: SearchService;
  pruning: PruningService;
  /** The tools an agent needs beyond the spec's seven: context, append, summaries, delete. */
  context?: ContextService;
  summaries?: SummariesService;
}

export interface ToolDefinition<I extends TObject, O extends TObject> {
  name: string;
  description: string;
  inputSchema: I;
  outputSchema: O;
  /** The tool over its services; undefined when a service it needs is not wired (the tool is left out). */
  bind(deps: MemoryToolDeps): ((input: Static<I>) => Promise<Static<O>>) | undefined;
}

/** Typed against its schemas: run's input is what the input schema admits, its answer what the output schema says. */
export const defineTool = <I extends TObject, O extends TObject>(definition: ToolDefinition<I, O>) => definition;

