import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { ErrorResponse } from '../features/conversations/conversations.schemas.js';
import type { MemoryTool } from './memory-tools.js';
import type { ToolInvoker } from './tool-invoker.js';
import { AnyEnvelope, successEnvelope, ToolFailure, ToolListing, ToolParameters, ToolParams } from './tools.schemas.js';

const tags = ['tools'];

const failures = {
  400: ToolFailure, 404: ToolFailure, 413: ToolFailure, 415: ToolFailure, 500: ToolFailure, 503: ToolFailure, 507: ToolFailure,
  401: ErrorResponse, 429: ErrorResponse,
};

/** The invoker validates (the same schema, answering in the envelope), so Fastify's own validation stays out of the way. */
const noValidation = () => () => true;

/**
 * The REST form of the tools: POST /mcp/tools/{tool} with the tool's parameters as the body.
 * Each tool has its own route, so /openapi.json shows its body and its `data`; a generic route
 * answers unknown names with the envelope's 404.
 */
export const toolRoutes: FastifyPluginAsyncTypebox<{ invoker: ToolInvoker }> = async (app, { invoker }) => {
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

  for (const tool of invoker.tools) registerTool(app, invoker, tool);

  app.post('/mcp/tools/:tool', {
    schema: {
      tags,
      summary: 'Call a tool by name; the answer is the envelope {success, data, error}',
      params: ToolParams,
      body: ToolParameters,
      response: { 200: AnyEnvelope, ...failures },
    },
  }, async (request, reply) => {
    const outcome = await invoker.invoke(request.params.tool, request.body);
    return reply.code(outcome.status as 200).send(outcome.envelope);
  });
};

function registerTool(app: Parameters<FastifyPluginAsyncTypebox>[0], invoker: ToolInvoker, tool: MemoryTool): void {
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
    const outcome = await invoker.invoke(tool.name, request.body);
    return reply.code(outcome.status as 200).send(outcome.envelope as never);
  });
}
