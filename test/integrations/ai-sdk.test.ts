import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { generateText, stepCountIs, streamText, wrapLanguageModel } from 'ai';
import { convertArrayToReadableStream, MockLanguageModelV4 } from 'ai/test';
import { createMemsvcClient, MemsvcAuthError, MemsvcForbiddenError, MemsvcUnavailableError, type MemsvcClient } from '../../src/client/index.js';
import { MEMORY_CONTEXT_HEADING, memsvcMemory, memsvcTools } from '../../src/integrations/ai-sdk/index.js';
import { unusedPort } from '../helpers/fake-bridge.js';
import type { RunningService } from '../helpers/service-harness.js';
import { startSeededMemsvc } from './seeded-memsvc.js';

const usage = {
  inputTokens: { total: 10, noCache: 10, cacheRead: undefined, cacheWrite: undefined },
  outputTokens: { total: 5, text: 5, reasoning: undefined },
};
const stop = { unified: 'stop' as const, raw: undefined };

/** The SDK's mock model answering `text`, generated or streamed; it records every prompt it was given. */
function answering(text: string) {
  return new MockLanguageModelV4({
    doGenerate: async () => ({ content: [{ type: 'text', text }], finishReason: stop, usage, warnings: [] }),
    doStream: async () => ({
      stream: convertArrayToReadableStream([
        { type: 'stream-start', warnings: [] },
        { type: 'text-start', id: 't' },
        ...text.split(/(?<= )/).map((delta) => ({ type: 'text-delta' as const, id: 't', delta })),
        { type: 'text-end', id: 't' },
        { type: 'finish', finishReason: stop, usage },
      ]),
    }),
  });
}

const systemMessages = (model: MockLanguageModelV4, call = 0) =>
  (model.doGenerateCalls[call] ?? model.doStreamCalls[call])!.prompt.filter((message) => message.role === 'system').map((message) => message.content);

describe('memsvc/ai-sdk against a real memsvc', () => {
  let server: RunningService;
  let client: MemsvcClient;
  before(async () => {
    ({ server, client } = await startSeededMemsvc());
  });
  after(() => server.stop());

  const messagesOf = async (conversationId: string) => {
    const messages = [];
    for await (const message of client.conversations.messages(conversationId)) messages.push({ role: message.role, content: message.content });
    return messages;
  };

  test('generateText: the memory reaches the prompt as a system message, and each exchange is stored', async () => {
    const model = answering('Use the kestrel profile.');
    const memory = memsvcMemory({ client, label: 'ai sdk chat', folder: '/chat', budget: 1000 });
    const wrapped = wrapLanguageModel({ model, middleware: memory });

    const result = await generateText({ model: wrapped, system: 'Answer briefly.', prompt: 'Which VPN profile does the staging deploy need?' });
    assert.equal(result.text, 'Use the kestrel profile.');
    const [own, added] = systemMessages(model);
    assert.equal(own, 'Answer briefly.', "the prompt's own system message stays first");
    assert.ok(added?.startsWith(MEMORY_CONTEXT_HEADING) && added.includes('VPN profile called kestrel'), added);

    const id = memory.conversationId!;
    const conversation = await client.conversations.get(id);
    assert.deepEqual([conversation.label, conversation.folder], ['ai sdk chat', '/chat']);
    assert.deepEqual(await messagesOf(id), [
      { role: 'user', content: 'Which VPN profile does the staging deploy need?' },
      { role: 'assistant', content: 'Use the kestrel profile.' },
    ]);

    await generateText({ model: wrapped, prompt: 'And for production?' });
    assert.equal(memory.conversationId, id, 'the second exchange goes to the same conversation');
    assert.deepEqual((await messagesOf(id)).slice(2), [
      { role: 'user', content: 'And for production?' },
      { role: 'assistant', content: 'Use the kestrel profile.' },
    ]);
  });

  test('streamText: the memory reaches the prompt, and the exchange is stored by the time the stream ends', async () => {
    const model = answering('Streamed: use kestrel.');
    const memory = memsvcMemory({ client, folder: '/chat' });
    const result = streamText({
      model: wrapLanguageModel({ model, middleware: memory }),
      messages: [{ role: 'user', content: 'What is the staging VPN profile?' }],
    });
    let streamed = '';
    for await (const delta of result.textStream) streamed += delta;
    assert.equal(streamed, 'Streamed: use kestrel.');
    assert.ok(systemMessages(model)[0]?.includes('VPN profile called kestrel'));

    const id = memory.conversationId!;
    assert.equal((await client.conversations.get(id)).label, 'What is the staging VPN profile?', 'the label defaults to the first question');
    assert.deepEqual(await messagesOf(id), [
      { role: 'user', content: 'What is the staging VPN profile?' },
      { role: 'assistant', content: 'Streamed: use kestrel.' },
    ]);
  });

  test('a tool round stores the question once and the final answer once', async () => {
    let call = 0;
    const model = new MockLanguageModelV4({
      doGenerate: async () => (call++ === 0
        ? { content: [{ type: 'tool-call', toolCallId: 'c1', toolName: 'memory_search', input: JSON.stringify({ query: 'kestrel' }) }],
          finishReason: { unified: 'tool-calls', raw: undefined }, usage, warnings: [] }
        : { content: [{ type: 'text', text: 'Found it: kestrel.' }], finishReason: stop, usage, warnings: [] }),
    });
    const memory = memsvcMemory({ client, label: 'tool round', folder: '/chat' });
    const result = await generateText({
      model: wrapLanguageModel({ model, middleware: memory }), tools: memsvcTools(client), stopWhen: stepCountIs(3),
      prompt: 'Look up the VPN profile',
    });
    assert.equal(result.text, 'Found it: kestrel.');
    const output = result.steps[0]!.toolResults[0]!.output as { results: Array<{ content: string; label: string }> };
    assert.ok(output.results.some((hit) => hit.label === 'staging access' && hit.content.includes('kestrel')));
    assert.deepEqual(await messagesOf(memory.conversationId!), [
      { role: 'user', content: 'Look up the VPN profile' },
      { role: 'assistant', content: 'Found it: kestrel.' },
    ]);
  });

  test('memsvcTools: search, context and store, each one client call', async () => {
    const tools = memsvcTools(client, { folder: '/notes', label: 'from a tool', budget: 500 });
    const options = { toolCallId: 'x', messages: [], context: {} };
    const stored = await tools.memory_store.execute!({ messages: [{ role: 'user', content: 'The backup window is 02:00 UTC' }] }, options) as
      { conversation_id: string; stored: number };
    const conversation = await client.conversations.get(stored.conversation_id);
    assert.deepEqual([conversation.label, conversation.folder, conversation.message_count], ['from a tool', '/notes', 1]);
    await tools.memory_store.execute!({ conversation_id: stored.conversation_id, messages: [{ role: 'assistant', content: 'Noted.' }] }, options);
    assert.equal((await client.conversations.get(stored.conversation_id)).message_count, 2);

    const found = await tools.memory_search.execute!({ query: 'backup window', folder: '/notes' }, options) as { results: Array<{ folder: string }> };
    assert.ok(found.results.length > 0 && found.results.every((hit) => hit.folder === '/notes'));
    const context = await tools.memory_assemble_context.execute!({ query: 'backup window' }, options) as { context: string };
    assert.ok(context.context.includes('02:00 UTC'));
  });

  test("a wrong key reaches generateText as MemsvcAuthError with the server's message, and a tool as a tool error", async () => {
    const wrongKey = createMemsvcClient({ baseUrl: server.baseUrl, apiKey: 'not-the-key' });
    await assert.rejects(
      generateText({ model: wrapLanguageModel({ model: answering('x'), middleware: memsvcMemory({ client: wrongKey }) }), prompt: 'hello' }),
      (error) => error instanceof MemsvcAuthError && error.status === 401 && error.message === 'Invalid or missing API key',
    );

    const model = new MockLanguageModelV4({
      doGenerate: async () => ({ content: [{ type: 'tool-call', toolCallId: 'c1', toolName: 'memory_search', input: '{"query":"kestrel"}' }],
        finishReason: { unified: 'tool-calls', raw: undefined }, usage, warnings: [] }),
    });
    const result = await generateText({ model, tools: memsvcTools(wrongKey), prompt: 'search' });
    const failure = result.steps[0]!.content.find((part) => part.type === 'tool-error');
    assert.ok(failure && failure.error instanceof MemsvcAuthError && failure.error.message === 'Invalid or missing API key');
  });

  test('a read-only tenant token: the streamed answer still arrives, and the refused store reaches onError as MemsvcForbiddenError', async () => {
    const reader = await client.keys.create({ name: 'ai-sdk reader', grants: [{ folder: '/', access: 'read' }] });
    const { token } = await createMemsvcClient({ baseUrl: server.baseUrl, apiKey: reader.key }).keys.mintToken([{ folder: '/ops', access: 'read' }]);
    const asToken = createMemsvcClient({ baseUrl: server.baseUrl, apiKey: token });
    const model = answering('kestrel, read-only.');
    const errors: unknown[] = [];
    const result = streamText({
      model: wrapLanguageModel({ model, middleware: memsvcMemory({ client: asToken, folder: '/chat' }) }),
      prompt: 'What is the staging VPN profile?',
      onError: ({ error }) => { errors.push(error); },
    });
    let streamed = '';
    for await (const delta of result.textStream) streamed += delta;
    assert.equal(streamed, 'kestrel, read-only.');
    assert.ok(systemMessages(model)[0]?.includes('kestrel'), 'the token reads the context its grants cover');
    assert.equal(errors.length, 1);
    assert.ok(errors[0] instanceof MemsvcForbiddenError && errors[0].status === 403, String(errors[0]));
  });

  test('an unreachable memsvc fails streamText through its onError, with no unhandled rejection', async () => {
    const nowhere = createMemsvcClient({ baseUrl: `http://127.0.0.1:${await unusedPort()}`, apiKey: 'x' });
    const errors: unknown[] = [];
    const result = streamText({
      model: wrapLanguageModel({ model: answering('x'), middleware: memsvcMemory({ client: nowhere }) }),
      prompt: 'hello',
      onError: ({ error }) => { errors.push(error); },
    });
    let streamed = '';
    for await (const delta of result.textStream) streamed += delta;
    assert.equal(streamed, '');
    assert.equal(errors.length, 1);
    assert.ok(errors[0] instanceof MemsvcUnavailableError && errors[0].message.startsWith('memsvc cannot be reached'));
  });
});
