/** Embeddings as the controller receives them: the model tells whether stored vectors are still comparable. */
export interface EmbeddingBatch {
  model: string;
  dimension: number;
  vectors: Float32Array[];
}

export interface EmbeddingProvider {
  /** Failures are UpstreamError (domain/upstream-error.ts), which knows whether trying again may help. */
  embed(texts: readonly string[]): Promise<EmbeddingBatch>;
  /** Throws when the provider is unreachable or unhealthy. */
  health(): Promise<{ model?: string; dimension?: number }>;
}
