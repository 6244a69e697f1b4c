import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { Agent } from '@mastra/core/agent';
import { MastraError } from '@mastra/core/error';
import { MastraLanguageModelV2Mock } from '@mastra/core/test-utils/llm-mock';
import { createMemsvcClient, type MemsvcClient } from '../../src/client/index.js';
import { MEMORY_CONTEXT_HEADING, memsvcProcessor, memsvcTools } from '../../src/integrations/mastra/index.js';
import type { RunningService } from '../helpers/service-harness.js';
import { startSeededMemsvc, storedMessages } from './seeded-memsvc.js';

type LanguageModelV2StreamPart = Awaited<ReturnType<MastraLanguageModelV2Mock['doStream']>>['stream'] extends ReadableStream<infer P> ? P : never;
type Turn = {
  content: Array<{ type: 'text'; text: string } | { type: 'tool-call'; toolCallId: string; toolName: string; input: string }>;
  finishReason: 'stop' | 'tool-calls';
};
const usage = { inputTokens: 10, outputTokens: 5, totalTokens: 15 };
const answer = (text: string): Turn => ({ content: [{ type: 'text', text }], finishReason: 'stop' });
const toolCall = (toolName: string, input: unknown): Turn =>
  ({ content: [{ type: 'tool-call', toolCallId: 'call-1', toolName, input: JSON.stringify(input) }], finishReason: 'tool-calls' });

/** Mastra's mock model: each call, generated or streamed, answers with the next turn. */
function scripted(...turns: Turn[]) {
  let call = 0;
  const next = () => turns[Math.min(call++, turns.length - 1)]!;
  return new MastraLanguageModelV2Mock({
    doGenerate: async () => {
      const turn = next();
      return { content: turn.content, finishReason: turn.finishReason, usage, warnings: [] };
    },
    doStream: async () => {
      const turn = next();
      const parts: LanguageModelV2StreamPart[] = [
        { type: 'stream-start', warnings: [] },
        ...turn.content.flatMap((part): LanguageModelV2StreamPart[] => (part.type === 'text'
          ? [{ type: 'text-start', id: 't' }, { type: 'text-delta', id: 't', delta: part.text }, { type: 'text-end', id: 't' }]
          : [part])),
        { type: 'finish', finishReason: turn.finishReason, usage },
      ];
      return { stream: new ReadableStream({ start(controller) { for (const part of parts) controller.enqueue(part); controller.close(); } }) };
    },
  });
}

/** The messages of an error and of its causes, outermost first. */
const causes = (error: unknown): string[] =>
  (error instanceof Error ? [error.message, ...causes(error.cause)] : typeof error === 'object' && error !== null && 'message' in error
    ? [String(error.message), ...causes((error as { cause?: unknown }).cause)] : []);
/** The prompts the model was given, generated or streamed, in order. */
const prompts = (model: MastraLanguageModelV2Mock) => [...model.doGenerateCalls, ...model.doStreamCalls].map((call) => call.prompt);
const systemTexts = (model: MastraLanguageModelV2Mock, call = 0) =>
  prompts(model)[call]!.filter((message) => message.role === 'system').map((message) => message.content);

describe('memsvc/mastra against a real memsvc', () => {
  let server: RunningService;
  let client: MemsvcClient;
  before(async () => {
    ({ server, client } = await startSeededMemsvc());
  });
  after(() => server.stop());

  const stored = (conversationId: string) => storedMessages(client, conversationId);

  test('the processor adds the memory to the prompt and stores each exchange, generated or streamed', async () => {
    const model = scripted(answer('Use the kestrel profile.'));
    const memory = memsvcProcessor({ client, label: 'mastra chat', folder: '/chat', budget: 1000 });
    const agent = new Agent({
      id: 'assistant', name: 'assistant', instructions: 'Answer briefly.', model,
      inputProcessors: [memory], outputProcessors: [memory],
    });

    const result = await agent.generate('Which VPN profile does the staging deploy need?');
    assert.equal(result.text, 'Use the kestrel profile.');
    const [instructions, added] = systemTexts(model);
    assert.equal(instructions, 'Answer briefly.');
    assert.ok(typeof added === 'string' && added.startsWith(MEMORY_CONTEXT_HEADING) && added.includes('VPN profile called kestrel'), String(added));

    const id = memory.conversationId!;
    const conversation = await client.conversations.get(id);
    assert.deepEqual([conversation.label, conversation.folder], ['mastra chat', '/chat']);
    assert.deepEqual(await stored(id), [
      ['user', 'Which VPN profile does the staging deploy need?'], ['assistant', 'Use the kestrel profile.'],
    ]);

    const streamed = await agent.stream('And for production?');
    let text = '';
    for await (const delta of streamed.textStream) text += delta;
    assert.equal(text, 'Use the kestrel profile.');
    assert.equal(memory.conversationId, id);
    // The output processors run as the stream finishes; the full output resolves after them.
    await streamed.getFullOutput();
    assert.deepEqual((await stored(id)).slice(2), [['user', 'And for production?'], ['assistant', 'Use the kestrel profile.']]);
  });

  test('memsvcTools: an agent searches memory and answers from it', async () => {
    const model = scripted(toolCall('memory_search', { query: 'VPN profile' }), answer('Found: kestrel.'));
    const agent = new Agent({ id: 'assistant', name: 'assistant', instructions: 'Use memory.', model, tools: memsvcTools(client) });
    const result = await agent.generate('Which VPN profile?', { maxSteps: 3 });
    assert.equal(result.text, 'Found: kestrel.');
    const output = result.toolResults[0]!.payload.result as { results: Array<{ label: string; content: string }> };
    assert.ok(output.results.some((hit) => hit.label === 'staging access' && hit.content.includes('kestrel')));
    const tools = model.doGenerateCalls[0]!.tools!.map((tool) => tool.name).sort();
    assert.deepEqual(tools, ['memory_assemble_context', 'memory_search', 'memory_store']);
  });

  test("a wrong key: the processor's failure rejects generate with a MastraError carrying the server's message; a tool's failure is the tool's error result with the server's message", async () => {
    const wrongKey = createMemsvcClient({ baseUrl: server.baseUrl, apiKey: 'not-the-key' });
    const memory = memsvcProcessor({ client: wrongKey });
    const agent = new Agent({
      id: 'assistant', name: 'assistant', instructions: 'x', model: scripted(answer('x')), inputProcessors: [memory], outputProcessors: [memory],
    });
    // Mastra reports a failed processor as its own MastraError; the server's message is in its causes.
    await assert.rejects(agent.generate('hello'), (error) =>
      error instanceof MastraError && error.id === 'AGENT_GENERATE_FAILED' && causes(error).some((message) => message.includes('Invalid or missing API key')));

    const model = scripted(toolCall('memory_search', { query: 'kestrel' }), answer('Memory is unavailable.'));
    const withTools = new Agent({ id: 'assistant', name: 'assistant', instructions: 'x', model, tools: memsvcTools(wrongKey) });
    const result = await withTools.generate('search', { maxSteps: 3 });
    assert.equal(result.text, 'Memory is unavailable.');
    const toolMessage = prompts(model)[1]!.find((message) => message.role === 'tool');
    assert.ok(JSON.stringify(toolMessage).includes('Invalid or missing API key'), JSON.stringify(toolMessage));
  });
});
