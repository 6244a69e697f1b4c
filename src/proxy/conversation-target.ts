import type { Conversation, Message, MessageInput } from '../domain/conversation.js';
import { NotFoundError } from '../domain/errors.js';
import { newId } from '../domain/ids.js';
import type { ConversationFilter, ConversationSortField, PageRequest } from '../ports/conversation-store.js';
import type { CreateConversationInput } from '../features/conversations/conversations.service.js';

/** What the proxy needs of conversations; the ConversationService provides it in-process. */
export interface ProxyConversations {
  /** Throws a NotFoundError for an unknown (or malformed) id; does not count as a client read. */
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
  /** Ids announced for a label whose conversation is not created yet, so concurrent first requests share one. */
  private readonly reserved = new Map<string, string>();

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

  /**
   * The id a conversation not created yet will get. Nothing is written: the
   * conversation is created with its first exchange, so a request cut by a
   * crash leaves no empty conversation behind.
   */
  reserve(target: { label: string; folder: string; reuseByLabel: boolean }): string {
    if (!target.reuseByLabel) return newId();
    const key = labelKey(target);
    const id = this.reserved.get(key) ?? newId();
    this.reserved.set(key, id);
    return id;
  }

  /**
   * Creates the conversation with the given messages (under target.id when
   * given, appending when it exists already), or, with reuseByLabel, appends
   * them to the label's newest one.
   */
  async place(target: { label: string; folder: string; reuseByLabel: boolean; id?: string }, messages: readonly MessageInput[]):
    Promise<{ id: string; created: boolean }> {
    const createOrAppend = async () => {
      if (target.id !== undefined && await this.exists(target.id)) {
        if (messages.length > 0) await this.conversations.appendMessages(target.id, messages);
        return { id: target.id, created: false };
      }
      const created = await this.conversations.create({
        ...(target.id !== undefined ? { id: target.id } : {}), label: target.label, folder: target.folder, messages,
      });
      return { id: created.id, created: true };
    };
    if (!target.reuseByLabel) return createOrAppend();
    const key = labelKey(target);
    return this.serialized(key, async () => {
      const existing = await this.findByLabel(target.label, target.folder);
      if (existing) {
        if (messages.length > 0) await this.conversations.appendMessages(existing.id, messages);
        return { id: existing.id, created: false };
      }
      const placed = await createOrAppend();
      if (this.reserved.get(key) === placed.id) this.reserved.delete(key);
      return placed;
    });
  }

  async exists(id: string): Promise<boolean> {
    try {
      await this.conversations.peek(id);
      return true;
    } catch (error) {
      if (error instanceof NotFoundError) return false;
      throw error;
    }
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

const labelKey = (target: { label: string; folder: string }) => `${target.folder}\u0000${target.label}`;
