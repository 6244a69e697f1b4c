/**
 * Turns texts into vectors. Implemented in the bridge by each provider
 * (builtin, ollama, openai); the controller reaches it over HTTP.
 */
export interface TextEmbedder {
  /** Stable identifier recorded with every stored vector, e.g. "builtin-hybrid-v1". */
  readonly model: string;
  readonly dimension: number;
  /** One L2-normalized vector per text, in input order. */
  embed(texts: readonly string[]): Promise<Float32Array[]>;
}
