import { createMemsvcClient, type MemsvcClient } from '../../src/client/index.js';
import { startService, type RunningService } from '../helpers/service-harness.js';

/** The fact every adapter's test looks for in memory: the staging VPN profile is called kestrel. */
export const KESTREL_FACT = 'The staging deploy needs the VPN profile called kestrel';

/** A real memsvc with one conversation holding KESTREL_FACT, and a client for it. */
export async function startSeededMemsvc(): Promise<{ server: RunningService; client: MemsvcClient }> {
  const server = await startService();
  const client = createMemsvcClient({ baseUrl: server.baseUrl, apiKey: server.apiKey });
  await client.conversations.create({ label: 'staging access', folder: '/ops', messages: [{ role: 'user', content: KESTREL_FACT }] });
  return { server, client };
}

/** A conversation's messages as [role, content], in order. */
export async function storedMessages(client: MemsvcClient, conversationId: string): Promise<Array<[string, string]>> {
  const messages: Array<[string, string]> = [];
  for await (const message of client.conversations.messages(conversationId)) messages.push([message.role, message.content]);
  return messages;
}
