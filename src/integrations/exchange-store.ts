import type { MemsvcClient } from '../client/index.js';

/** One turn of an exchange, as the adapters store it. */
export type StoredMessage = { role: 'user' | 'assistant'; content: string };

/** What heads the system message that carries the memory (every adapter that injects it). */
export const MEMORY_CONTEXT_HEADING = 'Relevant memory from earlier conversations:';
const LABEL_CHARS = 80;

export interface ExchangeStoreOptions {
  client: MemsvcClient;
  /** Label of the conversation; default: the first user message, shortened. */
  label?: string;
  folder?: string;
  /** Store into this existing conversation instead of creating one on the first exchange. */
  conversationId?: string;
}

/**
 * Where an adapter's exchanges go: the first one creates the conversation (label, folder), later ones are
 * appended to it; concurrent first exchanges wait for the one create. A failed create leaves nothing behind,
 * and the next exchange tries again.
 */
export function exchangeStore(options: ExchangeStoreOptions) {
  const { client } = options;
  let conversationId = options.conversationId;
  let creating: Promise<string> | undefined;
  return {
    get conversationId(): string | undefined {
      return conversationId;
    },
    async store(messages: StoredMessage[]): Promise<void> {
      if (messages.length === 0) return;
      if (conversationId === undefined && creating === undefined) {
        creating = client.conversations.create({
          label: options.label ?? labelFrom(messages),
          ...(options.folder ? { folder: options.folder } : {}),
          messages,
        }).then((created) => (conversationId = created.id));
        await creating.catch((error: unknown) => {
          creating = undefined;
          throw error;
        });
        return;
      }
      await client.conversations.append(conversationId ?? await creating!, messages);
    },
  };
}

/** The first line of the first user message, shortened: a conversation's default label. */
function labelFrom(messages: readonly StoredMessage[]): string {
  const first = (messages.find((message) => message.role === 'user') ?? messages[0]!).content.trim().split('\n')[0]!;
  return first.length > LABEL_CHARS ? `${first.slice(0, LABEL_CHARS - 1)}…` : first;
}
