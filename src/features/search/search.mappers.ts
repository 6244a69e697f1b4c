import type { ScoredHit } from './search.service.js';

export const toSearchHitResponse = (hit: ScoredHit) => ({
  conversation_id: hit.conversationId,
  message_id: hit.messageId,
  score: hit.score,
  content: hit.content,
  metadata: {
    role: hit.role,
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
  id: hit.messageId,
  conversation_id: hit.conversationId,
  role: hit.role,
  content: hit.content,
  timestamp: hit.timestamp,
  embedding_id: hit.embeddingId,
  metadata: hit.metadata,
  score: hit.score,
  label: hit.label,
  folder: hit.folder,
});
