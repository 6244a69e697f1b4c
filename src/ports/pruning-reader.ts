export interface IdleConversationQuery {
  /** Both the last access and the last change (updated_at) are before this instant. */
  idleBefore: string;
  /** Conversations with importance at most this are the ones to archive; they are listed first. */
  importanceThreshold: number;
  limit: number;
  /** Only conversations in these subtrees (a tenant's visible folders; none finds nothing). */
  within?: readonly string[];
}

export interface IdleConversation {
  id: string;
  label: string;
  lastAccessedAt: string;
  updatedAt: string;
  messageCount: number;
  importanceScore: number;
  /** Characters of all messages (code points). */
  contentChars: number;
  /** The first 100 characters of the first message ('' when there is none). */
  preview: string;
}

/** Read side of pruning: active, unpinned conversations nobody used since a given time. */
export interface PruningReader {
  idleConversations(query: IdleConversationQuery): Promise<{ items: IdleConversation[]; total: number; archivable: number }>;
}
