import type { TextEmbedder } from '../ports/text-embedder.js';

/**
 * What the bridge's routes need from a provider. One implementation per
 * provider folder: builtin/, ollama/, openai/. Wiring lives in bridge.wiring.ts.
 */
export type ProviderName = 'builtin' | 'ollama' | 'openai';

export interface CallOptions {
  /** Aborted when our own HTTP client disconnects. */
  signal?: AbortSignal;
}

export interface EmbeddingProvider extends TextEmbedder {
  readonly provider: ProviderName;
  /** 0 while not known yet (an upstream model not called so far). */
  readonly dimension: number;
  embed(texts: readonly string[], options?: CallOptions): Promise<Float32Array[]>;
  /** Resolves when the provider can serve; rejects with the reason otherwise. */
  check(): Promise<void>;
  /** False for a lazily loaded embedder that has not been loaded yet. */
  readonly loaded?: boolean;
}

export interface SummaryProvider {
  readonly provider: ProviderName;
  readonly model: string;
  /** `texts` are passages in order; the result holds about `targetWords` words. */
  summarize(texts: readonly string[], targetWords: number, options?: CallOptions): Promise<string>;
  check(): Promise<void>;
}

export interface ExtractedEntities {
  people: string[];
  places: string[];
  organizations: string[];
  dates: string[];
  emails: string[];
  urls: string[];
}

export interface EntityExtractor {
  readonly model: string;
  extract(text: string): ExtractedEntities;
}

export interface ImportanceScorer {
  readonly model: string;
  /** An integer 1..10. */
  score(text: string): number;
}

/** An OpenAI-shaped chat completion request; unknown fields are forwarded untouched. */
export interface ChatCompletionRequest {
  model?: string;
  messages: Array<Record<string, unknown>>;
  stream?: boolean;
  [key: string]: unknown;
}

export interface ChatProvider {
  readonly provider: Exclude<ProviderName, 'builtin'>;
  /** Used when a request names no model. */
  readonly model: string;
  /** Returns the upstream's OpenAI-shaped completion object. */
  complete(request: ChatCompletionRequest, options?: CallOptions): Promise<Record<string, unknown>>;
  /** Returns the upstream's open SSE response (status 2xx checked). */
  stream(request: ChatCompletionRequest, options?: CallOptions): Promise<Response>;
  check(): Promise<void>;
}

export interface BridgeProviders {
  embeddings: EmbeddingProvider;
  summaries: SummaryProvider;
  extractor: EntityExtractor;
  scorer: ImportanceScorer;
  /** null when bridge.chat.provider is `none`. */
  chat: ChatProvider | null;
}
