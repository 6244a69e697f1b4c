import { isPinned, type Conversation, type Message } from '../../domain/conversation.js';
import { NIL_UUID } from '../../domain/ids.js';
import type { CreateConversationBody } from './conversations.schemas.js';
import type { ConversationStats, CreateConversationInput } from './conversations.service.js';

export const toMessageResponse = (message: Message) => ({
  id: message.id,
  conversation_id: message.conversationId,
  position: message.position,
  role: message.role,
  name: message.name,
  content: message.content,
  timestamp: message.timestamp,
  embedding_id: message.embeddingId,
  embedding_status: message.embeddingStatus,
  metadata: message.metadata,
});

export const toConversationResponse = (conversation: Conversation) => ({
  id: conversation.id,
  conversation_id: conversation.id,
  label: conversation.label,
  folder: conversation.folder,
  status: conversation.status,
  pinned: isPinned(conversation),
  importance_score: conversation.importanceScore,
  word_count: conversation.wordCount,
  message_count: conversation.messageCount,
  session_count: conversation.sessionCount,
  created_at: conversation.createdAt,
  updated_at: conversation.updatedAt,
  last_accessed: conversation.lastAccessedAt,
});

/** The spec's list item: the search-hit shape standing for a whole conversation. */
export const toListItem = (conversation: Conversation) => ({
  conversation_id: conversation.id,
  message_id: NIL_UUID,
  score: 1.0,
  content: conversation.label,
  metadata: {
    folder: conversation.folder,
    status: conversation.status,
    importance_score: conversation.importanceScore,
    pinned: isPinned(conversation),
    message_count: conversation.messageCount,
    word_count: conversation.wordCount,
    session_count: conversation.sessionCount,
    created_at: conversation.createdAt,
    updated_at: conversation.updatedAt,
  },
  label: conversation.label,
  folder: conversation.folder,
  timestamp: conversation.updatedAt,
});

/** Create's answer: the conversation without what a new one cannot have yet (pinned, last access). */
export const toCreateConversationResponse = (conversation: Conversation) => {
  const { pinned: _pinned, last_accessed: _accessed, ...response } = toConversationResponse(conversation);
  return response;
};

export const toAppendMessagesResponse = ({ conversation, messages }: { conversation: Conversation; messages: readonly Message[] }) => ({
  conversation_id: conversation.id,
  message_count: conversation.messageCount,
  session_count: conversation.sessionCount,
  word_count: conversation.wordCount,
  messages: messages.map(toMessageResponse),
});

export const toConversationMetadataResponse = (c: Conversation) => ({
  conversation_id: c.id, label: c.label, status: c.status, folder: c.folder, importance_score: c.importanceScore,
  word_count: c.wordCount, session_count: c.sessionCount, message_count: c.messageCount,
  created_at: c.createdAt, updated_at: c.updatedAt,
});

/** Create's body as the service takes it (importance is an alias of importance_score). */
export const fromCreateConversationBody = (body: CreateConversationBody): CreateConversationInput => ({
  label: body.label,
  folder: body.folder,
  messages: body.messages,
  importanceScore: body.importance_score ?? body.importance,
});

const round2 = (value: number) => Math.round(value * 100) / 100;

export const toConversationStatsResponse = (stats: ConversationStats) => {
  const breakdown = (group: ConversationStats['groups'][number]) => ({ count: group.count, average_importance: round2(group.averageImportance) });
  return {
    total_conversations: stats.total,
    average_importance: round2(stats.averageImportance),
    ...(stats.by === 'label'
      ? { labels: stats.groups.map((group) => ({ label: group.key, ...breakdown(group) })) }
      : { folders: stats.groups.map((group) => ({ folder: group.key, ...breakdown(group) })) }),
    ...stats.filter,
  };
};
