import type { Conversation, ConversationStatus, MessageRole } from '../domain/conversation.js';

export interface ArchiveFilter {
  /** The conversation was still changing at or after this instant (updated_at >= from). */
  from?: string;
  /** The conversation existed at or before this instant (created_at <= to). */
  to?: string;
  /** The folder and its subtree. */
  folder?: string;
  /** Only conversations in one of these subtrees (a tenant's visible folders; none admits nothing). */
  within?: readonly string[];
}

export interface ArchiveCursor {
  createdAt: string;
  id: string;
}

/** A conversation as imported: every stored field given, counters already computed. */
export interface ImportedConversation {
  id: string;
  label: string;
  folder: string;
  status: ConversationStatus;
  importanceScore: number;
  wordCount: number;
  sessionCount: number;
  createdAt: string;
  updatedAt: string;
  lastAccessedAt: string;
  lastMessageAt: string | null;
  messages: Array<{
    /** Kept when no other message has it; otherwise a new one is made. */
    id: string | null;
    role: MessageRole;
    name: string | null;
    content: string;
    timestamp: string;
    metadata: Record<string, unknown> | null;
  }>;
}

export type ImportConflict = 'skip' | 'replace' | 'new_id';

export interface ImportOutcome {
  imported: number;
  replaced: number;
  skipped: number;
  messages: number;
  /** Conversations stored under a new id (on_conflict new_id). */
  renamed: Array<{ from: string; to: string }>;
  /** Keys of messages removed by replacing conversations (their vectors go too). */
  removedMessageKeys: number[];
}

/** Bulk reading and writing of whole conversations, for export and import. */
export interface ConversationArchive {
  /** Conversations passing the filter in (created_at, id) order, the `limit` after the cursor. */
  page(filter: ArchiveFilter, after: ArchiveCursor | null, limit: number): Promise<Conversation[]>;
  /** Stores all conversations, or nothing when anything fails: one transaction. */
  importAll(conversations: readonly ImportedConversation[], onConflict: ImportConflict): Promise<ImportOutcome>;
}
