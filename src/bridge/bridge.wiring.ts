import type { Config } from '../config/config.schema.js';
import type { TextEmbedder } from '../ports/text-embedder.js';
import type { BridgeProviders, ChatProvider, EmbeddingProvider, SummaryProvider } from './bridge.providers.js';
import { createBuiltinExtractor } from './builtin/builtin-extractor.js';
import { createBuiltinScorer } from './builtin/builtin-scorer.js';
import { createBuiltinSummarizer } from './builtin/builtin-summarizer.js';
import { createLazyEmbedder } from './lazy-embedder.js';
import { BUILTIN_EMBEDDING_DIMENSION, BUILTIN_EMBEDDING_MODEL } from './builtin/embedding/builtin-model.js';
import { createLlmSummarizer } from './llm-summarizer.js';
import { createOllamaChat, OLLAMA_DEFAULT_CHAT_MODEL } from './ollama/ollama-chat.js';
import { createOllamaEmbedder } from './ollama/ollama-embedder.js';
import { checkOpenAiServer, createOpenAiCompatibleChat, OPENAI_DEFAULT_CHAT_MODEL } from './openai/openai-chat.js';
import { createOpenAiEmbedder } from './openai/openai-embedder.js';
import { createUpstreamClient, type UpstreamClient } from './upstream-client.js';

export type BridgeConfig = Config['bridge'] & { cacheDir: string };

/** The builtin embedder's id and size, reported by /health until it is loaded. */
export { BUILTIN_EMBEDDING_MODEL as BUILTIN_EMBEDDING_MODEL_EXPECTED, BUILTIN_EMBEDDING_DIMENSION } from './builtin/embedding/builtin-model.js';

export interface WiringOptions {
  fetch?: typeof fetch;
  retryBaseDelayMs?: number;
  maxRetryDelayMs?: number;
  /** Replaces the dynamic import of builtin/embedding/builtin-embedder.ts. */
  loadBuiltinEmbedder?: (cacheDir: string) => Promise<TextEmbedder>;
}

/** Builds the providers bridge.<capability>.provider asks for. */
export function createBridgeProviders(config: BridgeConfig, options: WiringOptions = {}): BridgeProviders {
  const healthTimeoutMs = Math.min(config.timeout_ms, 3000);
  const clients = new Map<'ollama' | 'openai', UpstreamClient>();
  const client = (provider: 'ollama' | 'openai'): UpstreamClient => {
    let existing = clients.get(provider);
    if (!existing) {
      existing = createUpstreamClient({
        provider,
        baseUrl: provider === 'ollama' ? config.ollama.url : config.openai.url,
        apiKey: provider === 'openai' ? config.openai.api_key : undefined,
        timeoutMs: config.timeout_ms,
        maxRetries: config.max_retries,
        retryBaseDelayMs: options.retryBaseDelayMs,
        maxRetryDelayMs: options.maxRetryDelayMs,
        fetch: options.fetch,
      });
      clients.set(provider, existing);
    }
    return existing;
  };

  const chatFor = (provider: 'ollama' | 'openai', model: string): ChatProvider =>
    provider === 'ollama'
      ? createOllamaChat({ client: client('ollama'), model, healthTimeoutMs })
      : createOpenAiCompatibleChat({
          provider: 'openai',
          client: client('openai'),
          model: model || OPENAI_DEFAULT_CHAT_MODEL,
          chatPath: '/chat/completions',
          check: () => checkOpenAiServer(client('openai'), healthTimeoutMs),
        });

  let embeddings: EmbeddingProvider;
  const { embeddings: e } = config;
  if (e.provider === 'ollama') {
    embeddings = createOllamaEmbedder({ client: client('ollama'), model: e.model, batchSize: e.batch_size, healthTimeoutMs });
  } else if (e.provider === 'openai') {
    embeddings = createOpenAiEmbedder({ client: client('openai'), model: e.model, batchSize: e.batch_size, healthTimeoutMs });
  } else {
    const load = options.loadBuiltinEmbedder ?? loadBuiltinEmbedder;
    embeddings = createLazyEmbedder({
      load: () => load(config.cacheDir),
      expectedModel: BUILTIN_EMBEDDING_MODEL,
      expectedDimension: BUILTIN_EMBEDDING_DIMENSION,
    });
  }

  let summaries: SummaryProvider;
  const s = config.summaries;
  if (s.provider === 'builtin') {
    summaries = createBuiltinSummarizer();
  } else {
    const sameAsChat = config.chat.provider === s.provider ? config.chat.model : '';
    const fallback = s.provider === 'ollama' ? OLLAMA_DEFAULT_CHAT_MODEL : OPENAI_DEFAULT_CHAT_MODEL;
    const model = s.model || sameAsChat || fallback;
    summaries = createLlmSummarizer({ chat: chatFor(s.provider, model), model });
  }

  const chat = config.chat.provider === 'none' ? null : chatFor(config.chat.provider, config.chat.model);

  return { embeddings, summaries, extractor: createBuiltinExtractor(), scorer: createBuiltinScorer(), chat };
}

/**
 * Loads the builtin embedder (src/bridge/builtin/embedding/builtin-embedder.ts).
 * Imported dynamically so start-up does not pay for it: the first /embed does
 * (about 10 s the very first time, while it builds its cache in cacheDir; then ~0.2 s).
 */
async function loadBuiltinEmbedder(cacheDir: string): Promise<TextEmbedder> {
  const { createBuiltinEmbedder } = await import('./builtin/embedding/builtin-embedder.js');
  return createBuiltinEmbedder({ cacheDir });
}
