import type { ChatProvider } from '../bridge.providers.js';
import { createOpenAiCompatibleChat } from '../openai/openai-chat.js';
import type { UpstreamClient } from '../upstream-client.js';
import { checkOllamaModel } from './ollama-health.js';

export const OLLAMA_DEFAULT_CHAT_MODEL = 'llama3.2';

export interface OllamaChatOptions {
  client: UpstreamClient;
  model?: string;
  healthTimeoutMs: number;
}

/**
 * Chat through Ollama's OpenAI-compatible endpoint `POST /v1/chat/completions`
 * (present since Ollama 0.1.24), so requests, responses and SSE streams pass
 * through unchanged.
 */
export function createOllamaChat(options: OllamaChatOptions): ChatProvider {
  const model = options.model || OLLAMA_DEFAULT_CHAT_MODEL;
  return createOpenAiCompatibleChat({
    provider: 'ollama',
    client: options.client,
    model,
    chatPath: '/v1/chat/completions',
    check: () => checkOllamaModel(options.client, model, options.healthTimeoutMs),
  });
}
