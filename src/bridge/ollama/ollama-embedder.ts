import { UpstreamError } from '../../domain/upstream-error.js';
import type { CallOptions, EmbeddingProvider } from '../bridge.providers.js';
import { knownDimension, toNormalizedVectors } from '../embedding-vectors.js';
import { inBatches, type UpstreamClient } from '../upstream-client.js';
import { checkOllamaModel } from './ollama-health.js';

export const OLLAMA_DEFAULT_EMBEDDING_MODEL = 'nomic-embed-text';

export interface OllamaEmbedderOptions {
  client: UpstreamClient;
  model?: string;
  batchSize: number;
  healthTimeoutMs: number;
}

/**
 * Embeddings from Ollama's native API:
 * `POST /api/embed {model, input: [...]}` -> `{model, embeddings: [[...], ...]}`.
 */
export function createOllamaEmbedder(options: OllamaEmbedderOptions): EmbeddingProvider {
  const model = options.model || OLLAMA_DEFAULT_EMBEDDING_MODEL;
  let dimension = knownDimension(model) ?? 0;
  const url = `${options.client.baseUrl}/api/embed`;

  async function embedBatch(batch: readonly string[], call?: CallOptions): Promise<Float32Array[]> {
    const response = await options.client.postJson<{ embeddings?: unknown }>('/api/embed', { model, input: batch }, { signal: call?.signal });
    if (!response || typeof response !== 'object') {
      throw new UpstreamError({ provider: 'ollama', kind: 'invalid_response', url, message: 'response is not an object' });
    }
    const vectors = toNormalizedVectors(response.embeddings, batch.length, 'ollama', url);
    dimension = vectors[0]?.length ?? dimension;
    return vectors;
  }

  return {
    provider: 'ollama',
    model,
    get dimension() {
      return dimension;
    },
    embed: (texts, call) => inBatches(texts, options.batchSize, (batch) => embedBatch(batch, call)),
    check: () => checkOllamaModel(options.client, model, options.healthTimeoutMs),
  };
}
