import type { EmbeddingBatch } from './embedding-provider.js';

/** Embeds the one text of a search question, for an index of `model`'s vectors. */
export interface QueryEmbedder {
  /** Failures are UpstreamError when the bridge was asked. */
  embedQuery(text: string, model: string): Promise<EmbeddingBatch>;
}
