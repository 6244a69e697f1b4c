import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import type { ToolInvoker } from './tool-invoker.js';

const tags = ['tools'];

const Envelope = Type.Object({
  success: Type.Boolean(),
  data: Type.Union([Type.Record(Type.String(), Type.Unknown()), Type.Null()]),
  error: Type.Union([Type.Object({ code: Type.String(), message: Type.String() }), Type.Null()]),
});

/** The REST form of the tools: POST /mcp/tools/{tool} with the tool's parameters as the body. */
export const toolRoutes: FastifyPluginAsyncTypebox<{ invoker: ToolInvoker }> = async (app, { invoker }) => {
  app.get('/mcp/tools', {
    schema: { tags, summary: 'The tools with their JSON schemas (protocol 1.0)' },
  }, async () => ({
    protocol_version: '1.0',
    tools: invoker.tools.map((tool) => ({
      name: tool.name, description: tool.description, input_schema: tool.inputSchema,
      ...(tool.outputSchema ? { output_schema: tool.outputSchema } : {}),
    })),
  }));

  app.post('/mcp/tools/:tool', {
    schema: {
      tags,
      summary: 'Call a tool; the answer is the envelope {success, data, error}',
      params: Type.Object({ tool: Type.String() }),
      body: Type.Optional(Type.Unknown()),
      // Failures carry the same envelope with status 4xx/5xx; auth and rate-limit errors keep the API's error shape.
      response: { 200: Envelope },
    },
  }, async (request, reply) => {
    const outcome = await invoker.invoke(request.params.tool, request.body);
    // Failures send the same envelope with their 4xx/5xx status (only 200 is declared, see above).
    return reply.code(outcome.status as 200).send(outcome.envelope);
  });
};
