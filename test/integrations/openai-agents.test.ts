import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import {
  Agent, run, setTracingDisabled, Usage,
  type AgentInputItem, type Model, type ModelRequest, type ModelResponse, type StreamEvent,
} from '@openai/agents';
import { createMemsvcClient, MemsvcNotFoundError, type MemsvcClient } from '../../src/client/index.js';
import { MemsvcSession, memsvcTools } from '../../src/integrations/openai-agents/index.js';
import type { RunningService } from '../helpers/service-harness.js';
import { startSeededMemsvc, storedMessages } from './seeded-memsvc.js';

/**
 * The SDK has no offline model, so this is one implementing its Model interface: it asks for
 * memory_search with the user's words, then answers with what the tool returned.
 */
class MemoryReadingModel implements Model {
  readonly requests: ModelRequest[] = [];

  async getResponse(request: ModelRequest): Promise<ModelResponse> {
    this.requests.push(request);
    const input = typeof request.input === 'string' ? [{ role: 'user', content: request.input } as AgentInputItem] : request.input;
    const last = input.at(-1)!;
    const output: ModelResponse['output'] = last.type === 'function_call_result'
      ? [{ type: 'message', role: 'assistant', status: 'completed', content: [{ type: 'output_text', text: `Memory: ${JSON.stringify(last.output)}` }] }]
      : [{ type: 'function_call', callId: `call-${this.requests.length}`, name: 'memory_search', status: 'completed',
        arguments: JSON.stringify({ query: 'VPN profile' }) }];
    return { usage: new Usage(), output, responseId: `response-${this.requests.length}` };
  }

  async *getStreamedResponse(request: ModelRequest): AsyncIterable<StreamEvent> {
    const response = await this.getResponse(request);
    for (const item of response.output) {
      if (item.type === 'message' && item.role === 'assistant') {
        for (const part of item.content) if (part.type === 'output_text') yield { type: 'output_text_delta', delta: part.text };
      }
    }
    yield {
      type: 'response_done',
      response: { id: response.responseId!, usage: { inputTokens: 0, outputTokens: 0, totalTokens: 0 },
        output: response.output as Extract<StreamEvent, { type: 'response_done' }>['response']['output'] },
    };
  }
}

describe('memsvc/openai-agents against a real memsvc', () => {
  let server: RunningService;
  let client: MemsvcClient;
  before(async () => {
    setTracingDisabled(true);
    ({ server, client } = await startSeededMemsvc());
  });
  after(() => server.stop());

  const stored = (conversationId: string) => storedMessages(client, conversationId);

  test('an agent calls memory_search and answers from it; the session keeps every item in a memsvc conversation', async () => {
    const model = new MemoryReadingModel();
    const agent = new Agent({ name: 'assistant', instructions: 'Use memory.', model, tools: memsvcTools(client) });
    const session = new MemsvcSession({ client, label: 'agent chat', folder: '/agents' });

    const result = await run(agent, 'Which VPN profile does staging need?', { session });
    assert.match(String(result.finalOutput), /^Memory: .*VPN profile called kestrel/);
    assert.equal(model.requests[0]!.tools.map((tool) => tool.name).join(), 'memory_search,memory_assemble_context,memory_store');

    const id = await session.getSessionId();
    const conversation = await client.conversations.get(id);
    assert.deepEqual([conversation.label, conversation.folder], ['agent chat', '/agents']);
    const messages = await stored(id);
    assert.deepEqual(messages.map(([role]) => role), ['user', 'assistant', 'assistant', 'assistant']);
    assert.equal(messages[0]![1], 'Which VPN profile does staging need?');
    assert.equal(messages[1]![1], '[tool call memory_search] {"query":"VPN profile"}');
    assert.match(messages[2]![1], /^\[tool result memory_search\] .*kestrel/);
    assert.equal(messages[3]![1], String(result.finalOutput));

    const items = await session.getItems();
    assert.deepEqual(items.map((item) => item.type ?? 'message'), ['message', 'function_call', 'function_call_result', 'message']);

    // The next run starts from the stored history.
    const again = await run(agent, 'And production?', { session, stream: true });
    await again.completed;
    const input = model.requests.at(-2)!.input as AgentInputItem[];
    assert.deepEqual(input.slice(0, items.length), items, 'the stored items, as they were added, open the next request');
    assert.equal((await stored(id)).length, 8);
  });

  test('getItems(limit), popItem and clearSession; the conversation keeps its id', async () => {
    const session = new MemsvcSession({ client, folder: '/agents' });
    assert.deepEqual(await session.getItems(), [], 'nothing is created before the first items');
    await session.addItems([
      { role: 'user', content: 'first question' },
      { role: 'assistant', status: 'completed', content: [{ type: 'output_text', text: 'first answer' }] },
      { role: 'user', content: 'second question' },
    ]);
    const id = await session.getSessionId();
    assert.equal((await client.conversations.get(id)).label, 'first question');
    assert.deepEqual((await session.getItems(2)).map((item) => 'role' in item && item.role), ['assistant', 'user']);

    const popped = await session.popItem();
    assert.deepEqual(popped, { role: 'user', content: 'second question' });
    assert.deepEqual(await stored(id), [['user', 'first question'], ['assistant', 'first answer']]);

    await session.clearSession();
    assert.deepEqual(await session.getItems(), []);
    assert.equal(await session.getSessionId(), id);
    assert.equal((await client.conversations.get(id)).message_count, 0);
  });

  test("a tool's failure reaches the model as the tool's error result with the server's message; a session's rejects the run", async () => {
    const wrongKey = createMemsvcClient({ baseUrl: server.baseUrl, apiKey: 'not-the-key' });
    const model = new MemoryReadingModel();
    const result = await run(new Agent({ name: 'assistant', model, tools: memsvcTools(wrongKey) }), 'Which VPN profile?');
    const toolResult = (model.requests[1]!.input as AgentInputItem[]).find((item) => item.type === 'function_call_result');
    assert.ok(toolResult && JSON.stringify(toolResult.output).includes('Invalid or missing API key'), JSON.stringify(toolResult));
    assert.match(String(result.finalOutput), /Invalid or missing API key/);

    const unknown = '00000000-0000-4000-8000-000000000000';
    await assert.rejects(
      run(new Agent({ name: 'assistant', model: new MemoryReadingModel() }), 'hello', { session: new MemsvcSession({ client, conversationId: unknown }) }),
      (error) => error instanceof MemsvcNotFoundError && error.message === `Conversation not found: ${unknown}`,
    );
  });
});
