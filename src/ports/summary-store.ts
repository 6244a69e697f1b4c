export type SummaryLevel = 'daily' | 'weekly' | 'monthly';

export interface StoredSummary {
  conversationId: string;
  level: SummaryLevel;
  /** Hash of exactly what was summarized; the cache key. */
  sourceHash: string;
  windowStart: string;
  windowEnd: string;
  /** Messages in the window. */
  sourceCount: number;
  summary: string;
  model: string;
  generatedAt: string;
}

export interface WindowMessage {
  role: string;
  content: string;
  timestamp: string;
}

/** Stored summaries and the reads of message windows they are built from. Windows are (start, end]. */
export interface SummaryStore {
  /** Keys of the conversation's messages with start < timestamp <= end, ascending. */
  messageKeysInWindow(conversationId: string, start: string, end: string): Promise<number[]>;
  /** The newest `limit` messages of the window, returned oldest first. */
  messagesInWindow(conversationId: string, start: string, end: string, limit: number): Promise<WindowMessage[]>;
  find(conversationId: string, level: SummaryLevel, sourceHash: string): Promise<StoredSummary | null>;
  /** Stores (or refreshes) a summary, keeping only the newest `keepPerLevel` for its conversation and level. */
  save(summary: StoredSummary, keepPerLevel: number): Promise<void>;
}
