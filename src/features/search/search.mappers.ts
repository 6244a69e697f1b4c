import type { MessageHit } from '../../domain/search.js';
import type { ScoredHit } from './search.service.js';

/** A found message as the full-text and context answers list it (the fields they share, in their order). */
export const toHitMessage = (hit: MessageHit) => ({
  id: hit.messageId,
  conversation_id: hit.conversationId,
  role: hit.role,
  name: hit.name,
  content: hit.content,
  timestamp: hit.timestamp,
  embedding_id: hit.embeddingId,
});

export const toSearchHitResponse = (hit: ScoredHit) => ({
  conversation_id: hit.conversationId,
  message_id: hit.messageId,
  score: hit.score,
  content: hit.content,
  metadata: {
    role: hit.role,
    name: hit.name,
    position: hit.position,
    importance_score: hit.importanceScore,
    status: hit.status,
    embedding_id: hit.embeddingId,
    message_metadata: hit.metadata,
  },
  label: hit.label,
  folder: hit.folder,
  timestamp: hit.timestamp,
});

export const toFullTextHitResponse = (hit: ScoredHit) => ({
  ...toHitMessage(hit),
  metadata: hit.metadata,
  score: hit.score,
  label: hit.label,
  folder: hit.folder,
});
