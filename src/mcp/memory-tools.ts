import type { TObject } from 'typebox';
import { appendTool, deleteTool, getContextTool, statsTool, storeTool, updateTool } from './tools/conversation.tools.js';
import { assembleContextTool } from './tools/context.tools.js';
import { exportTool } from './tools/export.tools.js';
import { pruneTool } from './tools/pruning.tools.js';
import { searchTool } from './tools/search.tools.js';
import { summarizeTool } from './tools/summaries.tools.js';
import type { MemoryToolDeps, ToolDefinition } from './tool-definition.js';

/**
 * One tool. Its schemas are the feature's own objects (`features/<name>/<name>.schemas.ts`): the
 * same ones serve the REST form, the MCP servers, the tool listing and /openapi.json.
 */
export interface MemoryTool {
  name: string;
  description: string;
  inputSchema: TObject;
  /** What `data` (MCP: structuredContent) holds on success. */
  outputSchema: TObject;
  run(input: unknown): Promise<Record<string, unknown>>;
}

/** The spec's seven tools first, then the agent tools, in the order the listing shows. */
const TOOLS = [
  storeTool, searchTool, updateTool, pruneTool, getContextTool, exportTool, statsTool,
  assembleContextTool, appendTool, summarizeTool, deleteTool,
] as const;

export function buildMemoryTools(deps: MemoryToolDeps): MemoryTool[] {
  return TOOLS.flatMap((definition: ToolDefinition<TObject, TObject>) => {
    const run = definition.bind(deps);
    if (!run) return [];
    const { name, description, inputSchema, outputSchema } = definition;
    return [{ name, description, inputSchema, outputSchema, run: run as MemoryTool['run'] }];
  });
}
