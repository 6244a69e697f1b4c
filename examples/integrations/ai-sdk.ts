// examples/integrations/ai-sdk.ts
import { generateText, stepCountIs, streamText, wrapLanguageModel, type LanguageModel } from 'ai';
import { MockLanguageModelV4 } from 'ai/test';
import { createMemsvcClient } from 'memsvc/client';
import { memsvcMemory, memsvcTools } from 'memsvc/ai-sdk';

// apiKey takes an API key or a tenant token (docs/tenancy.md).
const memsvc = createMemsvcClient({
  baseUrl: process.env.MEMSVC_BASE_URL ?? 'http://127.0.0.1:8080',
  apiKey: process.env.MEMSVC_API_KEY,
});

// Any AI SDK model, e.g. `openai('gpt-4.1-mini')` from '@ai-sdk/openai'. This stand-in runs offline: offered
// tools, it searches memory first; then it answers with the first remembered message it was given.
type Call = Parameters<MockLanguageModelV4['doGenerate']>[0];
const usage = { inputTokens: { total: 1, noCache: 1, cacheRead: 0, cacheWrite: 0 }, outputTokens: { total: 1, text: 1, reasoning: 0 } };
function reply({ prompt, tools }: Call) {
  const last = prompt.at(-1)!;
  if (tools?.length && last.role === 'user') {
    return { type: 'tool-call', toolCallId: '1', toolName: 'memory_search', input: JSON.stringify({ query: 'VPN profile' }) } as const;
  }
  const memory = prompt.find((m) => m.role === 'system' && m.content.startsWith('Relevant memory'))?.content as string | undefined;
  const found = last.role === 'tool' && last.content[0]?.type === 'tool-result' ? last.content[0].output : undefined;
  const hits = found?.type === 'json' ? (found.value as { results: Array<{ content: string }> }).results : [];
  return { type: 'text', text: `From memory: ${memory?.split('\n')[3] ?? hits[0]?.content ?? 'nothing'}` } as const;
}
const model: LanguageModel = new MockLanguageModelV4({
  doGenerate: async (call) => {
    const part = reply(call);
    return { content: [part], finishReason: { unified: part.type === 'text' ? 'stop' : 'tool-calls', raw: undefined }, usage, warnings: [] };
  },
  doStream: async (call) => {
    const { text } = reply(call) as { text: string };
    return {
      stream: ReadableStream.from([
        { type: 'text-start', id: '1' }, { type: 'text-delta', id: '1', delta: text }, { type: 'text-end', id: '1' },
        { type: 'finish', finishReason: { unified: 'stop', raw: undefined }, usage },
      ] as const),
    };
  },
});

// Something worth remembering.
await memsvc.conversations.create({
  label: 'staging access', folder: '/ops',
  messages: [{ role: 'user', content: 'The staging deploy needs the VPN profile called kestrel' }],
});

// Memory as middleware: each call gets the relevant memory as a system message, and each exchange is
// stored in one conversation (created on the first call).
const memory = memsvcMemory({ client: memsvc, label: 'deploy help', folder: '/chat', budget: 2000 });
const withMemory = wrapLanguageModel({ model, middleware: memory });

const { text } = await generateText({ model: withMemory, prompt: 'Which VPN profile does the staging deploy need?' });
console.log(text);

const stream = streamText({ model: withMemory, prompt: 'Remind me: which profile for staging?' });
for await (const delta of stream.textStream) process.stdout.write(delta);
console.log(`\nstored in conversation ${memory.conversationId}`);

// Memory as tools the model may call: memory_search, memory_assemble_context and memory_store.
const answer = await generateText({
  model, tools: memsvcTools(memsvc, { folder: '/notes' }), stopWhen: stepCountIs(2), prompt: 'Look up the staging VPN profile',
});
console.log(answer.text);
