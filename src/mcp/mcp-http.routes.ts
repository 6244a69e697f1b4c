import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { buildMcpServer, type ToolCatalog } from './mcp-server.js';
import type { ForRequest } from '../http/principal.js';

/**
 * MCP over Streamable HTTP at /mcp, stateless: each request gets its own
 * server and transport, so any number of clients can call without sessions.
 * Bearer auth comes from the app's hook like every other route.
 */
export const mcpHttpRoutes: FastifyPluginAsync<{ catalog: ForRequest<ToolCatalog> }> = async (app, { catalog }) => {
  app.post('/mcp', { schema: { hide: true } }, async (request: FastifyRequest, reply: FastifyReply) => {
    // The caller's tools: services that see only its grants.
    const server = buildMcpServer(catalog(request));
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
    reply.hijack();
    reply.raw.on('close', () => {
      void transport.close();
      void server.close();
    });
    await server.connect(transport);
    await transport.handleRequest(request.raw, reply.raw, request.body);
  });

  // Stateless: there is no server-initiated stream to open and no session to end.
  const notAllowed = async (_request: FastifyRequest, reply: FastifyReply) =>
    reply.code(405).header('allow', 'POST').send({ error: 'Use POST for MCP requests', code: 'METHOD_NOT_ALLOWED' });
  app.get('/mcp', { schema: { hide: true } }, notAllowed);
  app.delete('/mcp', { schema: { hide: true } }, notAllowed);
};
