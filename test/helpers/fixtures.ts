import type { ServiceClient } from './service-harness.js';

export const NIL_UUID = '00000000-0000-0000-0000-000000000000';
export const UNKNOWN_ID = '6f1c2b8e-4d3a-4e5f-9a7b-0c1d2e3f4a5b';
export const HOUR = 3_600_000;
export const DAY = 24 * HOUR;

/** A minimal valid create body. */
export const conversationBody = (overrides: Record<string, unknown> = {}) => ({
  label: 'Test conversation',
  folder: '/work',
  messages: [
    { role: 'user', content: 'hello there' },
    { role: 'assistant', content: 'general kenobi' },
  ],
  ...overrides,
});

/** Creates a conversation (from conversationBody unless a whole body is given) and returns its id; fails loudly when refused. */
export async function createConversation(service: ServiceClient, fields: Record<string, unknown> = {}): Promise<string> {
  const response = await service.api('POST', '/api/v1/conversations', conversationBody(fields));
  if (response.status !== 201) throw new Error(`create failed: ${response.status} ${response.text}`);
  return response.body.id as string;
}

/** How many conversations match the query string (e.g. '?label=x'): the probe for "nothing was stored" checks. */
export async function countConversations(service: ServiceClient, query = ''): Promise<number> {
  const response = await service.api('GET', `/api/v1/conversations/count${query}`);
  if (response.status !== 200) throw new Error(`count failed: ${response.status} ${response.text}`);
  return response.body.count as number;
}
