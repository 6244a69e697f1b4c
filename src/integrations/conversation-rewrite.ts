import type { MemsvcClient, Message } from '../client/index.js';

/**
 * Every message of a conversation, in order. Frameworks that ask for "the history" want all of it;
 * the client pages through it.
 */
export async function allMessages(client: MemsvcClient, conversationId: string): Promise<Message[]> {
  const messages: Message[] = [];
  for await (const message of client.conversations.messages(conversationId)) messages.push(message);
  return messages;
}

/**
 * Keeps a conversation (its id, label, folder, status, importance and creation time) and replaces its
 * messages with the ones `keep` returns. memsvc has no call that deletes single messages, so this is the
 * import route with on_conflict "replace", the same record shape an export writes; the kept messages keep
 * their ids, timestamps and metadata. Not atomic with respect to writes made meanwhile: what another writer
 * appends between the read and the import is lost. For the rare calls that need it (a framework's clear or pop).
 */
export async function rewriteConversation(
  client: MemsvcClient, conversationId: string, keep: (messages: Message[]) => Message[],
): Promise<void> {
  const [conversation, messages] = await Promise.all([client.conversations.get(conversationId), allMessages(client, conversationId)]);
  await client.import([{
    id: conversation.id,
    label: conversation.label,
    folder: conversation.folder,
    status: conversation.status,
    importance_score: conversation.importance_score,
    created_at: conversation.created_at,
    messages: keep(messages).map(({ id, role, content, timestamp, metadata }) => ({ id, role, content, timestamp, metadata })),
  }], 'replace');
  // An import record has no pin: a pinned conversation is pinned again.
  if (conversation.pinned) await client.conversations.pin(conversationId);
}
