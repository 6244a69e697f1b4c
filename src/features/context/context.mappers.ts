import { inContextOrder, renderContext, type SelectedMessage } from './context-selection.js';
import { estimateTokens } from '../../domain/token-count.js';
import type { AssembledContext } from './context.service.js';
import { toHitMessage } from '../search/search.mappers.js';

/** The text variant: one prompt-ready string with its sources. */
export function toContextText(assembled: AssembledContext) {
  const text = renderContext(assembled.messages, assembled.request.includeMetadata);
  // Sources follow the text, so the nth source is the nth message there.
  const ordered = inContextOrder(assembled.messages, assembled.request.includeMetadata);
  return {
    context: text,
    token_count: estimateTokens(text),
    conversation_ids: [...new Set(ordered.map((message) => message.hit.conversationId))],
    message_count: ordered.length,
    sources: ordered.map(({ hit, score }) => ({
      message_id: hit.messageId,
      conversation_id: hit.conversationId,
      label: hit.label,
      folder: hit.folder,
      timestamp: hit.timestamp,
      relevance_score: score,
    })),
  };
}

export const toContextMessage = ({ hit, score }: SelectedMessage) => ({
  ...toHitMessage(hit),
  metadata: {
    label: hit.label,
    folder: hit.folder,
    timestamp: hit.timestamp,
    relevance_score: score,
    importance_score: hit.importanceScore,
    message_metadata: hit.metadata,
  },
});
