import type { Conversation, ConversationStatus, Message, MessageInput } from '../domain/conversation.js';

export interface ConversationFilter {
  label?: string;
  /** Matches the folder and its subfolders. */
  folder?: string;
  pinned?: boolean;
  archived?: boolean;
  /** Only conversations in one of these subtrees (a tenant's visible folders; none admits nothing). */
  within?: readonly string[];
}

export type ConversationSortField = 'created_at' | 'updated_at' | 'importance_score' | 'label';

export interface PageRequest {
  offset: number;
  limit: number;
}

export interface ConversationListRequest extends PageRequest {
  filter: ConversationFilter;
  sort: ConversationSortField;
  order: 'asc' | 'desc';
}

export interface NewConversation {
  id: string;
  label: string;
  folder: string;
  importanceScore: number;
  messages: readonly MessageInput[];
  now: string;
}

export interface ConversationPatch {
  label?: string;
  folder?: string;
  importanceScore?: number;
  status?: ConversationStatus;
}

export interface AppendPolicy {
  maxMessagesPerConversation: number;
  /** An idle gap longer than this between two messages starts a new session. */
  sessionGapMs: number;
}

export interface StoreTotals {
  conversations: number;
  messages: number;
  embeddedMessages: number;
  storageBytes: number;
}

export interface GroupStats {
  key: string;
  count: number;
  averageImportance: number;
}

export interface FolderCount {
  folder: string;
  count: number;
}

/**
 * Durable home of conversations and messages. Every method is atomic:
 * it either applies entirely or leaves the store unchanged.
 */
export interface ConversationStore {
  create(input: NewConversation, policy: AppendPolicy): Promise<Conversation>;
  get(id: string): Promise<Conversation | null>;
  list(request: ConversationListRequest): Promise<{ items: Conversation[]; total: number }>;
  count(filter: ConversationFilter): Promise<number>;
  /** Returns false when the conversation does not exist. */
  update(id: string, patch: ConversationPatch, now: string): Promise<boolean>;
  /** Sets status for all ids, or none when any id is unknown (returns the unknown ids). */
  setStatusMany(ids: readonly string[], status: ConversationStatus, now: string): Promise<string[]>;
  /** Removes the conversation with its messages and vectors; returns the removed messages' keys, or null if absent. */
  delete(id: string): Promise<number[] | null>;
  /** Appends in order; returns null when the conversation does not exist. */
  appendMessages(id: string, messages: readonly MessageInput[], now: string, policy: AppendPolicy):
    Promise<{ conversation: Conversation; messages: Message[] } | null>;
  listMessages(conversationId: string, page: PageRequest): Promise<{ items: Message[]; total: number }>;
  touch(id: string, now: string): Promise<void>;
  /** `within`: only conversations in these subtrees (a tenant's visible folders; none counts nothing). */
  folderCounts(within?: readonly string[]): Promise<FolderCount[]>;
  /** Conversations matching the filter, grouped by folder or label, with counts and mean importance. */
  groupStats(filter: ConversationFilter, by: 'folder' | 'label'): Promise<GroupStats[]>;
  /** `within`: the conversations in these subtrees, with their share of the storage by their share of the messages. */
  totals(within?: readonly string[]): Promise<StoreTotals>;
  ping(): Promise<void>;
  close(): Promise<void>;
}
