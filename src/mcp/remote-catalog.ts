import type { ToolCatalog } from './mcp-server.js';
import type { ToolEnvelope } from './tool-invoker.js';

/** The tools of a running memsvc, reached over its REST form (for the stdio MCP server). */
export async function loadRemoteCatalog(baseUrl: string, apiKey: string): Promise<ToolCatalog> {
  const url = baseUrl.replace(/\/+$/, '');
  const headers = { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' };
  const unreachable = (error: unknown) =>
    `memsvc is not reachable at ${url} (${(error as Error).message}); start it with "npm start"`;

  let listing: { tools: Array<{ name: string; description: string; input_schema: object }> };
  try {
    const response = await fetch(`${url}/mcp/tools`, { headers });
    if (!response.ok) throw new Error(`GET /mcp/tools answered ${response.status}: ${await response.text()}`);
    listing = await response.json() as typeof listing;
  } catch (error) {
    throw new Error(unreachable(error));
  }

  return {
    tools: listing.tools.map((tool) => ({ name: tool.name, description: tool.description, inputSchema: tool.input_schema })),
    async call(name, params): Promise<ToolEnvelope> {
      try {
        const response = await fetch(`${url}/mcp/tools/${encodeURIComponent(name)}`, {
          method: 'POST', headers, body: JSON.stringify(params ?? {}),
        });
        const body = await response.json() as ToolEnvelope | { error: string; code?: string };
        if ('success' in body) return body;
        return { success: false, data: null, error: { code: body.code ?? 'ERROR', message: body.error } };
      } catch (error) {
        return { success: false, data: null, error: { code: 'UPSTREAM_UNAVAILABLE', message: unreachable(error) } };
      }
    },
  };
}
