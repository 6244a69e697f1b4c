import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { ErrorResponse } from '../features/conversations/conversations.schemas.js';
import type { MemoryTool } from './memory-tools.js';
import type { ScopedTools, ToolInvoker } from './tool-invoker.js';
import type { ForRequest } from '../http/principal.js';
import { AnyEnvelope, successEnvelope, ToolFailure, ToolListing, ToolParameters, ToolParams } from './tools.schemas.js';

const tags = ['tools'];

const failures = {
  400: ToolFailure, 404: ToolFailure, 413: ToolFailure, 415: ToolFailure, 500: ToolFailure, 503: ToolFailure, 507: ToolFailure,
  401: ErrorResponse, 403: ToolFailure, 429: ErrorResponse,
};

/** The invoker validates (the same schema, answering in the envelope), so Fastify's own validation stays out of the way. */
const noValidation = () => () => true;

/**
 * The REST form of the tools: POST /mcp/tools/{tool} with the tool's parameters as the body.
 * Each tool has its own route, so /openapi.json shows its body and its `data`; a generic route
 * answers unknown names with the envelope's 404.
 */
export interface ToolRouteOptions {
  /** Validates and lists (the schemas are the same for every caller). */
  invoker: ToolInvoker;
  /** The tools the caller runs: over services that see only its grants. */
  tools: ForRequest<ScopedTools>;
}

export const toolRoutes: FastifyPluginAsyncTypebox<ToolRouteOptions> = async (app, { invoker, tools }) => {
  app.get('/mcp/tools', {
    schema: { tags, summary: 'The tools with their JSON schemas (protocol 1.0)', response: { 200: ToolListing } },
  }, async () => ({
    protocol_version: '1.0',
    tools: invoker.tools.map((tool) => ({
      name: tool.name, description: tool.description,
      input_schema: tool.inputSchema as object as Record<string, unknown>,
      output_schema: tool.outputSchema as object as Record<string, unknown>,
    })),
  }));

  for (const tool of invoker.tools) registerTool(app, invoker, tools, tool);

  app.post('/mcp/tools/:tool', {
    schema: {
      tags,
      summary: 'Call a tool by name; the answer is the envelope {success, data, error}',
      params: ToolParams,
      body: ToolParameters,
      response: { 200: AnyEnvelope, ...failures },
    },
  }, async (request, reply) => {
    const outcome = await invoker.invoke(request.params.tool, request.body, tools(request));
    return reply.code(outcome.status as 200).send(outcome.envelope);
  });
};

function registerTool(app: Parameters<FastifyPluginAsyncTypebox>[0], invoker: ToolInvoker, tools: ForRequest<ScopedTools>,
  tool: MemoryTool): void {
  app.post(`/mcp/tools/${tool.name}`, {
    schema: {
      tags,
      operationId: tool.name,
      summary: tool.description,
      body: tool.inputSchema,
      response: { 200: successEnvelope(tool.outputSchema), ...failures },
    },
    validatorCompiler: noValidation,
  }, async (request, reply) => {
    const outcome = await invoker.invoke(tool.name, request.body, tools(request));
    return reply.code(outcome.status as 200).send(outcome.envelope as never);
  });
}
