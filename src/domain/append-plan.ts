import { countWords, type MessageInput, type MessageRole } from './conversation.js';
import { ErrorCode, LimitExceededError } from './errors.js';

/** What a conversation's counters are before an append. */
export interface ConversationCounters {
  messageCount: number;
  wordCount: number;
  sessionCount: number;
  lastMessageAt: string | null;
}

export interface AppendRules {
  maxMessagesPerConversation: number;
  /** An idle gap longer than this between two messages starts a new session. */
  sessionGapMs: number;
}

export interface PlannedMessage {
  position: number;
  role: MessageRole;
  name: string | null;
  content: string;
  timestamp: string;
  metadata: Record<string, unknown> | null;
}

export interface AppendPlan {
  messages: PlannedMessage[];
  /** The conversation's counters once the messages are stored. */
  counters: ConversationCounters;
}

/**
 * The append rules every storage driver (and import) applies, as one pure
 * function: the message limit, positions, default timestamps, word counts, and
 * sessions (a new one after an idle gap longer than the rule's). Throws
 * TOO_MANY_MESSAGES when the conversation would exceed its limit.
 */
export function planAppend(current: ConversationCounters, inputs: readonly MessageInput[], now: string, rules: AppendRules): AppendPlan {
  if (current.messageCount + inputs.length > rules.maxMessagesPerConversation) {
    throw new LimitExceededError(ErrorCode.TOO_MANY_MESSAGES,
      `A conversation holds at most ${rules.maxMessagesPerConversation} messages ` +
      `(it has ${current.messageCount}, ${inputs.length} more were sent)`);
  }
  let words = current.wordCount;
  let sessions = current.sessionCount;
  let lastAt = current.lastMessageAt;
  const messages = inputs.map((input, index): PlannedMessage => {
    const timestamp = input.timestamp ?? now;
    if (lastAt !== null && Date.parse(timestamp) - Date.parse(lastAt) > rules.sessionGapMs) sessions += 1;
    if (lastAt === null || timestamp > lastAt) lastAt = timestamp;
    words += countWords(input.content);
    return {
      position: current.messageCount + index,
      role: input.role,
      name: input.name ?? null,
      content: input.content,
      timestamp,
      metadata: input.metadata ?? null,
    };
  });
  return {
    messages,
    counters: { messageCount: current.messageCount + inputs.length, wordCount: words, sessionCount: sessions, lastMessageAt: lastAt },
  };
}

/** Counters of a conversation that starts empty. */
export const EMPTY_CONVERSATION: ConversationCounters = { messageCount: 0, wordCount: 0, sessionCount: 1, lastMessageAt: null };
