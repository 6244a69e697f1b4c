import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { CallToolRequestSchema, ListToolsRequestSchema, type CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { ToolEnvelope } from './tool-invoker.js';

export interface CatalogTool { name: string; description: string; inputSchema: object; outputSchema?: object }

export interface ToolCatalog {
  /** The tools, or a function that finds them (a catalog that reaches its service lazily). */
  tools: ReadonlyArray<CatalogTool> | (() => Promise<ReadonlyArray<CatalogTool>>);
  call(name: string, params: unknown): Promise<ToolEnvelope>;
}

export const MCP_SERVER_INFO = { name: 'memsvc', version: '1.0.0' } as const;

/**
 * An MCP server exposing the memory tools. The catalog decides where calls go:
 * the services in this process (Streamable HTTP at /mcp) or a running memsvc
 * over HTTP (`memsvc mcp`, stdio).
 */
export function buildMcpServer(catalog: ToolCatalog): Server {
  const server = new Server(MCP_SERVER_INFO, { capabilities: { tools: {} } });
  server.setRequestHandler(ListToolsRequestSchema, async () => ({
    tools: (typeof catalog.tools === 'function' ? await catalog.tools() : catalog.tools).map((tool) => ({
      name: tool.name,
      description: tool.description,
      inputSchema: tool.inputSchema as { type: 'object'; [key: string]: unknown },
      ...(tool.outputSchema ? { outputSchema: tool.outputSchema as { type: 'object'; [key: string]: unknown } } : {}),
    })),
  }));
  server.setRequestHandler(CallToolRequestSchema, async (request): Promise<CallToolResult> => {
    const envelope = await catalog.call(request.params.name, request.params.arguments ?? {});
    if (!envelope.success) {
      return { isError: true, content: [{ type: 'text', text: `${envelope.error.code}: ${envelope.error.message}` }] };
    }
    return { content: [{ type: 'text', text: JSON.stringify(envelope.data) }], structuredContent: envelope.data };
  });
  return server;
}
