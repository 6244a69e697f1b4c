import type { MemsvcClient } from '../../client/memsvc-client.js';

/** The context the service would give an LLM for this query, as text (or the whole response as JSON). */
export async function assembleContext(client: MemsvcClient, query: string, options: { budget: number; json: boolean }): Promise<string> {
  const result = await client.assembleContext({ query, context_budget: options.budget, format: 'text' });
  if (options.json) return `${JSON.stringify(result, null, 2)}\n`;
  const text = result as { context: string; token_count: number; message_count: number };
  return `${text.context}\n\n-- ${text.message_count} messages, ${text.token_count} tokens of ${options.budget}\n`;
}
