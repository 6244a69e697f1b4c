// examples/integrations/openai-agents.ts
import { Agent, run, setTracingDisabled, Usage, type Model, type ModelRequest } from '@openai/agents';
import { createMemsvcClient } from 'memsvc/client';
import { MemsvcSession, memsvcTools } from 'memsvc/openai-agents';

// apiKey takes an API key or a tenant token (docs/tenancy.md).
const memsvc = createMemsvcClient({
  baseUrl: process.env.MEMSVC_BASE_URL ?? 'http://127.0.0.1:8080',
  apiKey: process.env.MEMSVC_API_KEY,
});

// Leave `model` out to use OpenAI's default model (OPENAI_API_KEY). This stand-in runs offline: it searches
// memory first, then answers with the first message it found.
setTracingDisabled(true);
const model: Model = {
  async getResponse({ input }: ModelRequest) {
    const last = typeof input === 'string' ? undefined : input.at(-1);
    const output = last?.type === 'function_call_result' ? last.output : undefined;
    const text = typeof output === 'string' ? output : output && 'type' in output && output.type === 'text' ? output.text : undefined;
    const found = text && (JSON.parse(text) as { results: Array<{ content: string }> }).results[0]?.content;
    return {
      usage: new Usage(),
      output: [found === undefined
        ? { type: 'function_call', callId: `call-${Date.now()}`, name: 'memory_search', arguments: JSON.stringify({ query: 'VPN profile' }) }
        : { type: 'message', role: 'assistant', status: 'completed', content: [{ type: 'output_text', text: `From memory: ${found}` }] }],
    };
  },
  getStreamedResponse() {
    throw new Error('not used here');
  },
};

await memsvc.conversations.create({
  label: 'staging access', folder: '/ops',
  messages: [{ role: 'user', content: 'The staging deploy needs the VPN profile called kestrel' }],
});

// memory_search, memory_assemble_context and memory_store as function tools; the session keeps the
// agent's history (messages, tool calls and results) in a memsvc conversation.
const agent = new Agent({ name: 'assistant', instructions: 'Look things up in memory first.', model, tools: memsvcTools(memsvc) });
const session = new MemsvcSession({ client: memsvc, label: 'deploy help', folder: '/agents' });

const result = await run(agent, 'Which VPN profile does the staging deploy need?', { session });
console.log(result.finalOutput);
console.log(`session ${await session.getSessionId()}: ${(await session.getItems()).length} items`);
