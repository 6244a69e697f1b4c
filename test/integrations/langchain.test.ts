import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Document } from '@langchain/core/documents';
import { AIMessage, HumanMessage, ToolMessage, type BaseMessage } from '@langchain/core/messages';
import { ChatPromptTemplate, MessagesPlaceholder } from '@langchain/core/prompts';
import { RunnablePassthrough, RunnableWithMessageHistory } from '@langchain/core/runnables';
import { FakeListChatModel } from '@langchain/core/utils/testing';
import { createMemsvcClient, MemsvcAuthError, MemsvcNotFoundError, type MemsvcClient } from '../../src/client/index.js';
import { MemsvcChatMessageHistory, MemsvcRetriever } from '../../src/integrations/langchain/index.js';
import { type RunningService, startService } from '../helpers/service-harness.js';

const cite = (documents: Document[]) =>
  documents.map((doc) => `[${doc.metadata.label} | ${doc.metadata.folder}] ${doc.pageContent}`).join('\n');

describe('memsvc/langchain against a real memsvc', () => {
  let server: RunningService;
  let client: MemsvcClient;
  let seeded: string;
  before(async () => {
    // The embedding worker on, with the harness's deterministic embedder: hybrid search uses vectors too.
    server = await startService({ overrides: { embedding_worker: { enabled: true, poll_interval_ms: 20 } } });
    client = createMemsvcClient({ baseUrl: server.baseUrl, apiKey: server.apiKey });
    seeded = (await client.conversations.create({
      label: 'db migration', folder: '/work/backend',
      messages: [{ role: 'user', content: 'The migration deadlocked on the orders table' }, { role: 'assistant', content: 'Split it into two transactions' }],
    })).id;
    await server.waitForEmbeddings();
  });
  after(() => server.stop());

  test('MemsvcRetriever: hybrid search hits as Documents with their source in the metadata', async () => {
    const retriever = new MemsvcRetriever({ client, k: 2, filters: { folder: '/work' } });
    const documents = await retriever.invoke('orders table deadlock');
    assert.ok(documents.length > 0 && documents.length <= 2);
    const [best] = documents;
    assert.equal(best!.pageContent, 'The migration deadlocked on the orders table');
    const { score, timestamp, message_id: messageId, ...source } = best!.metadata;
    assert.deepEqual(source, { conversation_id: seeded, label: 'db migration', folder: '/work/backend', role: 'user' });
    assert.ok(score > 0 && score <= 1);
    assert.ok(!Number.isNaN(Date.parse(timestamp)));
    assert.equal(best!.id, messageId);
  });

  test('in a RunnableWithMessageHistory chain: the retrieved memory and the history reach the prompt, the turns are stored', async () => {
    const model = new FakeListChatModel({ responses: ['Split the migration into two transactions.', 'You asked about the deadlock.'] });
    const retriever = new MemsvcRetriever({ client, k: 3 });
    const prompt = ChatPromptTemplate.fromMessages([
      ['system', 'Answer from memory when it helps.\n\nMemory:\n{context}'],
      new MessagesPlaceholder('history'),
      ['human', '{question}'],
    ]);
    const chain = RunnablePassthrough.assign({ context: async (input: { question: string }) => cite(await retriever.invoke(input.question)) })
      .pipe(prompt).pipe(model);
    const chat = new RunnableWithMessageHistory({
      runnable: chain,
      getMessageHistory: (conversationId) => new MemsvcChatMessageHistory({ client, conversationId }),
      inputMessagesKey: 'question',
      historyMessagesKey: 'history',
    });
    const prompts: BaseMessage[][] = [];
    const callbacks = [{ handleChatModelStart: (_model: unknown, messages: BaseMessage[][]) => { prompts.push(messages[0]!); } }];

    const history = await MemsvcChatMessageHistory.create(client, { label: 'langchain chat', folder: '/chat' });
    const config = { configurable: { sessionId: history.conversationId }, callbacks };
    const first = await chat.invoke({ question: 'How do I fix the deadlocking migration?' }, config);
    assert.equal(first.content, 'Split the migration into two transactions.');
    assert.ok(prompts[0]![0]!.text.includes('[db migration | /work/backend] The migration deadlocked on the orders table'), prompts[0]![0]!.text);

    const second = await chat.invoke({ question: 'What did I ask before?' }, config);
    assert.equal(second.content, 'You asked about the deadlock.');
    assert.deepEqual(prompts[1]!.slice(1).map((message) => [message.type, message.text]), [
      ['human', 'How do I fix the deadlocking migration?'],
      ['ai', 'Split the migration into two transactions.'],
      ['human', 'What did I ask before?'],
    ], 'the stored history comes back into the prompt');

    const stored = [];
    for await (const message of client.conversations.messages(history.conversationId)) stored.push([message.role, message.content]);
    assert.deepEqual(stored, [
      ['user', 'How do I fix the deadlocking migration?'],
      ['assistant', 'Split the migration into two transactions.'],
      ['user', 'What did I ask before?'],
      ['assistant', 'You asked about the deadlock.'],
    ]);
  });

  test('MemsvcChatMessageHistory: tool calls come back as they were added; clear keeps the conversation', async () => {
    const history = await MemsvcChatMessageHistory.create(client, { label: 'tools', folder: '/chat' });
    const call = new AIMessage({ content: '', tool_calls: [{ id: 'call-1', name: 'lookup', args: { table: 'orders' }, type: 'tool_call' }] });
    const result = new ToolMessage({ content: 'orders: 12 rows locked', tool_call_id: 'call-1' });
    await history.addMessages([new HumanMessage('Which rows are locked?'), call, result]);
    await history.addAIMessage('Twelve rows of orders.');

    const messages = await history.getMessages();
    assert.deepEqual(messages.map((message) => message.type), ['human', 'ai', 'tool', 'ai']);
    assert.deepEqual((messages[1] as AIMessage).tool_calls?.map(({ name, args, id }) => ({ name, args, id })),
      [{ name: 'lookup', args: { table: 'orders' }, id: 'call-1' }]);
    assert.equal((messages[2] as ToolMessage).tool_call_id, 'call-1');
    const stored = await client.conversations.messagePage(history.conversationId, 1);
    assert.deepEqual(stored.results.map((message) => [message.role, message.content]), [
      ['user', 'Which rows are locked?'], ['assistant', '[tool call: lookup]'], ['assistant', 'orders: 12 rows locked'], ['assistant', 'Twelve rows of orders.'],
    ]);

    await client.conversations.pin(history.conversationId);
    await history.clear();
    assert.deepEqual(await history.getMessages(), []);
    const conversation = await client.conversations.get(history.conversationId);
    assert.deepEqual([conversation.label, conversation.folder, conversation.message_count, conversation.pinned], ['tools', '/chat', 0, true]);
  });

  test("failures reach the chain's caller as MemsvcErrors with the server's message", async () => {
    const unknown = '00000000-0000-4000-8000-000000000000';
    const chat = new RunnableWithMessageHistory({
      runnable: ChatPromptTemplate.fromMessages([new MessagesPlaceholder('history'), ['human', '{question}']]).pipe(new FakeListChatModel({ responses: ['x'] })),
      getMessageHistory: (conversationId) => new MemsvcChatMessageHistory({ client, conversationId }),
      inputMessagesKey: 'question',
      historyMessagesKey: 'history',
    });
    await assert.rejects(chat.invoke({ question: 'hello' }, { configurable: { sessionId: unknown } }),
      (error) => error instanceof MemsvcNotFoundError && error.message === `Conversation not found: ${unknown}`);

    const wrongKey = createMemsvcClient({ baseUrl: server.baseUrl, apiKey: 'not-the-key' });
    await assert.rejects(new MemsvcRetriever({ client: wrongKey }).invoke('deadlock'),
      (error) => error instanceof MemsvcAuthError && error.message === 'Invalid or missing API key');
  });
});
