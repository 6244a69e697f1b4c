import type { Conversation, Message, MessageInput } from '../domain/conversation.js';
import type { ConversationFilter, ConversationSortField, PageRequest } from '../ports/conversation-store.js';
import type { CreateConversationInput } from '../features/conversations/conversations.service.js';

/** What the proxy needs of conversations; the ConversationService provides it in-process. */
export interface ProxyConversations {
  /** Throws a 404 AppError for an unknown (or malformed) id; does not count as a client read. */
  peek(id: string): Promise<Conversation>;
  list(request: PageRequest & { filter: ConversationFilter; sort: ConversationSortField; order: 'asc' | 'desc' }):
    Promise<{ items: Conversation[]; total: number }>;
  create(input: CreateConversationInput): Promise<Conversation>;
  appendMessages(id: string, inputs: readonly MessageInput[]): Promise<unknown>;
  listMessages(id: string, page: PageRequest): Promise<{ items: Message[]; total: number }>;
  delete(id: string): Promise<void>;
  normalizeFolder(folder: string, field?: string): string;
}

const LOOKUP_PAGE = 50;

/**
 * Finds and creates conversations for the proxy. Find-or-create by label is
 * serialized per (label, folder) in this process, so two concurrent first
 * requests with the same headers land in one conversation.
 */
export class ConversationTargets {
  private readonly locks = new Map<string, Promise<unknown>>();

  constructor(private readonly conversations: ProxyConversations) {}

  /** The newest active conversation with exactly this label directly in this folder, if any. */
  async findByLabel(label: string, folder: string): Promise<Conversation | null> {
    // The folder filter matches the subtree; the exact folder is checked here.
    for (let offset = 0; ; offset += LOOKUP_PAGE) {
      const page = await this.conversations.list({
        offset, limit: LOOKUP_PAGE, sort: 'updated_at', order: 'desc', filter: { label, folder, archived: false },
      });
      const match = page.items.find((conversation) => conversation.folder === folder && conversation.status === 'active');
      if (match) return match;
      if (offset + LOOKUP_PAGE >= page.total) return null;
    }
  }

  /** Creates the conversation with the given messages, or, with reuseByLabel, appends them to the label's newest one. */
  async place(target: { label: string; folder: string; reuseByLabel: boolean }, messages: readonly MessageInput[]):
    Promise<{ id: string; created: boolean }> {
    if (!target.reuseByLabel) {
      return { id: (await this.conversations.create({ label: target.label, folder: target.folder, messages })).id, created: true };
    }
    return this.serialized(`${target.folder}\u0000${target.label}`, async () => {
      const existing = await this.findByLabel(target.label, target.folder);
      if (existing) {
        if (messages.length > 0) await this.conversations.appendMessages(existing.id, messages);
        return { id: existing.id, created: false };
      }
      const created = await this.conversations.create({ label: target.label, folder: target.folder, messages });
      return { id: created.id, created: true };
    });
  }

  private async serialized<T>(key: string, run: () => Promise<T>): Promise<T> {
    const previous = this.locks.get(key) ?? Promise.resolve();
    const current = previous.catch(() => undefined).then(run);
    this.locks.set(key, current);
    try {
      return await current;
    } finally {
      if (this.locks.get(key) === current) this.locks.delete(key);
    }
  }
}
