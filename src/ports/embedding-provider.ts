/** Embeddings as the controller receives them: the model tells whether stored vectors are still comparable. */
export interface EmbeddingBatch {
  model: string;
  dimension: number;
  vectors: Float32Array[];
}

export interface EmbeddingProvider {
  embed(texts: readonly string[]): Promise<EmbeddingBatch>;
  /** Throws when the provider is unreachable or unhealthy. */
  health(): Promise<{ provider?: string; model?: string; dimension?: number }>;
}

/** A failed call to the bridge or an upstream model; retryable failures are worth trying again later. */
export class UpstreamError extends Error {
  constructor(
    message: string,
    readonly retryable: boolean,
    readonly status?: number,
  ) {
    super(message);
    this.name = 'UpstreamError';
  }
}
