// examples/integrations/langchain.ts
import type { BaseChatModel } from '@langchain/core/language_models/chat_models';
import { ChatPromptTemplate, MessagesPlaceholder } from '@langchain/core/prompts';
import { RunnablePassthrough, RunnableWithMessageHistory } from '@langchain/core/runnables';
import { FakeListChatModel } from '@langchain/core/utils/testing';
import { createMemsvcClient } from 'memsvc/client';
import { MemsvcChatMessageHistory, MemsvcRetriever } from 'memsvc/langchain';

// apiKey takes an API key or a tenant token (docs/tenancy.md).
const memsvc = createMemsvcClient({
  baseUrl: process.env.MEMSVC_BASE_URL ?? 'http://127.0.0.1:8080',
  apiKey: process.env.MEMSVC_API_KEY,
});

// Any chat model, e.g. `new ChatOpenAI({ model: 'gpt-4.1-mini' })` from '@langchain/openai'.
// This stand-in runs offline and answers from a list.
const model: BaseChatModel = new FakeListChatModel({ responses: ['Split the migration into two transactions.', 'You asked about the deadlock.'] });

await memsvc.conversations.create({
  label: 'db migration', folder: '/work/backend',
  messages: [{ role: 'user', content: 'The migration deadlocked on the orders table' }],
});

// Hybrid search as a retriever: Documents with their source (conversation, label, folder, score, time).
const retriever = new MemsvcRetriever({ client: memsvc, k: 4, filters: { folder: '/work' } });
for (const doc of await retriever.invoke('orders table deadlock')) {
  console.log(`${doc.metadata.score.toFixed(2)} [${doc.metadata.label}] ${doc.pageContent}`);
}

// A chat whose history is a memsvc conversation, with the retrieved memory in its system prompt.
const prompt = ChatPromptTemplate.fromMessages([
  ['system', 'Answer with the help of this memory:\n{memory}'],
  new MessagesPlaceholder('history'),
  ['human', '{question}'],
]);
const chain = RunnablePassthrough.assign({
  memory: async ({ question }: { question: string }) =>
    (await retriever.invoke(question)).map((doc) => `[${doc.metadata.label}] ${doc.pageContent}`).join('\n'),
}).pipe(prompt).pipe(model);
const chat = new RunnableWithMessageHistory({
  runnable: chain,
  // The session id is the conversation id.
  getMessageHistory: (conversationId) => new MemsvcChatMessageHistory({ client: memsvc, conversationId }),
  inputMessagesKey: 'question',
  historyMessagesKey: 'history',
});

const history = await MemsvcChatMessageHistory.create(memsvc, { label: 'migration help', folder: '/chat' });
const config = { configurable: { sessionId: history.conversationId } };
console.log((await chat.invoke({ question: 'How do I fix the deadlocking migration?' }, config)).content);
console.log((await chat.invoke({ question: 'What did I ask before?' }, config)).content);
console.log(`history in conversation ${history.conversationId}: ${(await history.getMessages()).length} messages`);
