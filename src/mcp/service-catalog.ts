import type { CatalogTool, ToolCatalog } from './mcp-server.js';
import type { ToolEnvelope } from './tool-invoker.js';

/** A memsvc to forward to: where it answers and the key it takes. */
export interface ServiceEndpoint { url: string; apiKey: string }

/**
 * The tools of a memsvc reached over HTTP (its REST form), found lazily: `locate` runs on the first
 * listing or call, and again after the service stopped answering, so the stdio server never
 * depends on a service being up when it is spawned.
 */
export function serviceCatalog(locate: () => Promise<ServiceEndpoint>): ToolCatalog {
  let endpoint: Promise<ServiceEndpoint> | null = null;
  const current = () => {
    endpoint ??= locate().catch((error: unknown) => { endpoint = null; throw error; });
    return endpoint;
  };
  const send = async (path: string, init: RequestInit = {}) => {
    const { url, apiKey } = await current();
    return fetch(`${url}${path}`, {
      ...init, headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' },
    });
  };
  /** One retry after re-locating: the service we knew may have stopped and another may be up. */
  const withRetry = async (path: string, init?: RequestInit) => {
    try {
      return await send(path, init);
    } catch {
      endpoint = null;
      return send(path, init);
    }
  };

  return {
    async tools(): Promise<CatalogTool[]> {
      const response = await withRetry('/mcp/tools');
      if (!response.ok) throw new Error(`GET /mcp/tools answered ${response.status}: ${await response.text()}`);
      const listing = await response.json() as { tools: Array<{ name: string; description: string; input_schema: object; output_schema?: object }> };
      return listing.tools.map((tool) => ({
        name: tool.name, description: tool.description, inputSchema: tool.input_schema,
        ...(tool.output_schema ? { outputSchema: tool.output_schema } : {}),
      }));
    },
    async call(name, params): Promise<ToolEnvelope> {
      try {
        const response = await withRetry(`/mcp/tools/${encodeURIComponent(name)}`, { method: 'POST', body: JSON.stringify(params ?? {}) });
        const body = await response.json() as ToolEnvelope | { error: string; code?: string };
        if ('success' in body) return body;
        return { success: false, data: null, error: { code: body.code ?? 'ERROR', message: body.error } };
      } catch (error) {
        return { success: false, data: null, error: { code: 'UPSTREAM_UNAVAILABLE', message: `memsvc is not reachable: ${(error as Error).message}` } };
      }
    },
  };
}
