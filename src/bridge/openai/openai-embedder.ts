import { UpstreamError } from '../../domain/upstream-error.js';
import type { CallOptions, EmbeddingProvider } from '../bridge.providers.js';
import { knownDimension, toNormalizedVectors } from '../embedding-vectors.js';
import { inBatches, type UpstreamClient } from '../upstream-client.js';
import { checkOpenAiServer } from './openai-chat.js';

export const OPENAI_DEFAULT_EMBEDDING_MODEL = 'text-embedding-3-small';
/** The controller's vector store holds 768-d vectors; text-embedding-3-* can shorten theirs to it. */
export const OPENAI_SHORTENED_DIMENSION = 768;

export interface OpenAiEmbedderOptions {
  client: UpstreamClient;
  model?: string;
  batchSize: number;
  healthTimeoutMs: number;
}

interface OpenAiEmbeddingResponse {
  data?: Array<{ index?: number; embedding?: unknown }>;
}

/**
 * Embeddings from any OpenAI-compatible server:
 * `POST {url}/embeddings {model, input: [...], encoding_format: "float"}` ->
 * `{data: [{index, embedding}]}`. For text-embedding-3-* models the request asks
 * for 768 dimensions (`dimensions`), matching the controller's vector store.
 */
export function createOpenAiEmbedder(options: OpenAiEmbedderOptions): EmbeddingProvider {
  const model = options.model || OPENAI_DEFAULT_EMBEDDING_MODEL;
  const shorten = /^text-embedding-3-/.test(model);
  let dimension = shorten ? OPENAI_SHORTENED_DIMENSION : knownDimension(model) ?? 0;
  const url = `${options.client.baseUrl}/embeddings`;

  async function embedBatch(batch: readonly string[], call?: CallOptions): Promise<Float32Array[]> {
    const body: Record<string, unknown> = { model, input: batch, encoding_format: 'float' };
    if (shorten) body.dimensions = OPENAI_SHORTENED_DIMENSION;
    const response = await options.client.postJson<OpenAiEmbeddingResponse>('/embeddings', body, { signal: call?.signal });
    if (!response || !Array.isArray(response.data)) {
      throw new UpstreamError({ provider: 'openai', kind: 'invalid_response', url, message: 'response has no data array' });
    }
    const ordered = [...response.data].sort((a, b) => (a.index ?? 0) - (b.index ?? 0)).map((item) => item.embedding);
    const vectors = toNormalizedVectors(ordered, batch.length, 'openai', url);
    dimension = vectors[0]?.length ?? dimension;
    return vectors;
  }

  return {
    provider: 'openai',
    model,
    get dimension() {
      return dimension;
    },
    embed: (texts, call) => inBatches(texts, options.batchSize, (batch) => embedBatch(batch, call)),
    check: () => checkOpenAiServer(options.client, options.healthTimeoutMs),
  };
}
