import { UpstreamError } from '../../domain/upstream-error.js';
import type { CallOptions, ChatCompletionRequest, ChatProvider } from '../bridge.providers.js';
import type { UpstreamClient } from '../upstream-client.js';

export const OPENAI_DEFAULT_CHAT_MODEL = 'gpt-4o-mini';

export interface OpenAiCompatibleChatOptions {
  provider: ChatProvider['provider'];
  client: UpstreamClient;
  /** Default model for requests that name none. */
  model: string;
  /** Path of the chat completions endpoint under the client's base URL. */
  chatPath: string;
  check: () => Promise<void>;
}

/**
 * Chat against any server speaking OpenAI's `POST /chat/completions`
 * (OpenAI itself, vLLM, llama.cpp, LM Studio, Ollama's /v1). Requests are
 * forwarded as they came, only `model` is filled in when missing.
 */
export function createOpenAiCompatibleChat(options: OpenAiCompatibleChatOptions): ChatProvider {
  const { client, chatPath } = options;
  const withModel = (request: ChatCompletionRequest, stream: boolean): ChatCompletionRequest => ({
    ...request,
    model: request.model || options.model,
    stream,
  });
  return {
    provider: options.provider,
    model: options.model,
    async complete(request: ChatCompletionRequest, call?: CallOptions) {
      const response = await client.postJson<Record<string, unknown>>(chatPath, withModel(request, false), { signal: call?.signal });
      if (!response || typeof response !== 'object' || !Array.isArray((response as { choices?: unknown }).choices)) {
        throw new UpstreamError({ provider: options.provider, kind: 'invalid_response', url: `${client.baseUrl}${chatPath}`, message: 'chat completion has no choices' });
      }
      return response;
    },
    stream(request: ChatCompletionRequest, call?: CallOptions) {
      const body = withModel(request, true);
      return client.postStream(chatPath, body, { signal: call?.signal });
    },
    check: options.check,
  };
}

/** The first choice's message text of an OpenAI-shaped completion, or ''. */
export function completionText(completion: Record<string, unknown>): string {
  const choices = completion.choices as Array<{ message?: { content?: unknown } }> | undefined;
  const content = choices?.[0]?.message?.content;
  return typeof content === 'string' ? content : '';
}

/** Health probe of an OpenAI-compatible server: GET /models; any answer but 401/403/5xx means reachable. */
export async function checkOpenAiServer(client: UpstreamClient, timeoutMs: number): Promise<void> {
  try {
    await client.getJson('/models', { timeoutMs, maxRetries: 0 });
  } catch (err) {
    if (err instanceof UpstreamError && err.kind === 'http' && err.status !== undefined && err.status < 500 && err.status !== 401 && err.status !== 403) return;
    throw err;
  }
}
