import type { ServiceClient } from '../helpers/service-harness.js';

/** Creates a conversation from just the given fields (folder "/", no messages unless given) and returns its id. */
export async function create(service: ServiceClient, body: Record<string, unknown>): Promise<string> {
  const response = await service.api('POST', '/api/v1/conversations', { folder: '/', messages: [], ...body });
  if (response.status !== 201) throw new Error(`create failed: ${response.status} ${response.text}`);
  return response.body.id as string;
}
