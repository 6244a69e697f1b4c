export type ConversationStatus = 'active' | 'archived';
export type MessageRole = 'user' | 'assistant' | 'system';
export type EmbeddingStatus = 'pending' | 'done' | 'failed';

export const DEFAULT_IMPORTANCE = 5;
/** Importance scores are whole numbers from 1 to this. */
export const MAX_IMPORTANCE = 10;
/** Conversations at the top importance are pinned: context assembly recalls their newest messages. */
export const PINNED_IMPORTANCE = MAX_IMPORTANCE;

export interface Conversation {
  id: string;
  label: string;
  folder: string;
  status: ConversationStatus;
  importanceScore: number;
  wordCount: number;
  messageCount: number;
  sessionCount: number;
  createdAt: string;
  updatedAt: string;
  /** Time of the newest message; drives session counting. */
  lastMessageAt: string | null;
  /** Last time a client read this conversation; drives pruning. */
  lastAccessedAt: string;
}

export interface Message {
  id: string;
  conversationId: string;
  /** 0-based order within the conversation. */
  position: number;
  role: MessageRole;
  /** Who wrote it ("Melanie"): OpenAI's chat message `name`; null when not given. */
  name: string | null;
  content: string;
  timestamp: string;
  embeddingId: string | null;
  embeddingStatus: EmbeddingStatus;
  metadata: Record<string, unknown> | null;
}

/** A message as a client hands it in. */
export interface MessageInput {
  role: MessageRole;
  name?: string | null;
  content: string;
  timestamp?: string;
  metadata?: Record<string, unknown> | null;
}

/** Author names (a message's `name`) are 1 to this many characters after trimming. */
export const MAX_AUTHOR_NAME_CHARS = 100;

export const isPinned = (conversation: Pick<Conversation, 'importanceScore'>): boolean =>
  conversation.importanceScore >= PINNED_IMPORTANCE;

export const countWords = (text: string): number => text.match(/\S+/g)?.length ?? 0;
