import type { MessageRole } from './conversation.js';

/** Which messages a search may return. Folders match their subtree; dates bound the message timestamp. */
export interface SearchFilter {
  folder?: string;
  label?: string;
  importanceMin?: number;
  importanceMax?: number;
  dateFrom?: string;
  dateTo?: string;
  /** true: only archived conversations; false: only active ones; absent: both. */
  archived?: boolean;
  /** Conversations to leave out entirely (e.g. excluded folders in context assembly). */
  excludedFolders?: readonly string[];
  /** Only conversations in one of these subtrees (a tenant's visible folders; none admits nothing). */
  within?: readonly string[];
}

/** A message found by a search, with what a client needs to cite it. */
export interface MessageHit {
  key: number;
  messageId: string;
  conversationId: string;
  role: MessageRole;
  /** The author's name as stored with the message (not parsed from its content). */
  name: string | null;
  content: string;
  timestamp: string;
  embeddingId: string | null;
  metadata: Record<string, unknown> | null;
  label: string;
  folder: string;
  importanceScore: number;
  status: 'active' | 'archived';
  position: number;
}

/** A key with a score; rankings are sorted by score, best first. */
export interface ScoredKey {
  key: number;
  score: number;
}

/** Best first, ties by key: the order every ranking is returned in, whichever driver or pass made it. */
export const byScoreThenKey = (a: ScoredKey, b: ScoredKey): number => b.score - a.score || a.key - b.key;
