// examples/integrations/mastra.ts
import { Agent } from '@mastra/core/agent';
import { createMockModel } from '@mastra/core/test-utils/llm-mock';
import { createMemsvcClient } from 'memsvc/client';
import { memsvcProcessor, memsvcTools } from 'memsvc/mastra';

// apiKey takes an API key or a tenant token (docs/tenancy.md).
const memsvc = createMemsvcClient({
  baseUrl: process.env.MEMSVC_BASE_URL ?? 'http://127.0.0.1:8080',
  apiKey: process.env.MEMSVC_API_KEY,
});

// Any Mastra model, e.g. 'openai/gpt-4.1-mini'. This stand-in runs offline and always says the same.
const model = createMockModel({ mockText: 'Use the kestrel VPN profile.', version: 'v2' });

await memsvc.conversations.create({
  label: 'staging access', folder: '/ops',
  messages: [{ role: 'user', content: 'The staging deploy needs the VPN profile called kestrel' }],
});

// One processor, as input and output processor: it adds the relevant memory to each call as a system
// message and stores each exchange in one conversation. The tools let the model search and store too.
const memory = memsvcProcessor({ client: memsvc, label: 'deploy help', folder: '/chat', budget: 2000 });
const agent = new Agent({
  id: 'assistant', name: 'assistant', instructions: 'Answer briefly.', model,
  inputProcessors: [memory], outputProcessors: [memory], tools: memsvcTools(memsvc),
});

console.log((await agent.generate('Which VPN profile does the staging deploy need?')).text);
const stream = await agent.stream('And for production?');
for await (const delta of stream.textStream) process.stdout.write(delta);
await stream.getFullOutput();
console.log(`\nstored in conversation ${memory.conversationId}`);
