import type { ChatTurn, LanguageModel, TextEntities } from '../../ports/language-model.js';
import { UpstreamError } from '../../domain/upstream-error.js';
import type { BridgeClientOptions } from './http-bridge.client.js';
import { callBridge } from './bridge-http.js';

const EMPTY_ENTITIES: TextEntities = { people: [], places: [], organizations: [], dates: [], emails: [], urls: [] };

/** The bridge's /summarize, /extract and /v1/chat/completions, over HTTP (sibling of HttpBridgeClient's /embed). */
export class HttpBridgeLanguageClient implements LanguageModel {
  private readonly baseUrl: string;

  constructor(private readonly options: BridgeClientOptions) {
    this.baseUrl = options.url.replace(/\/+$/, '');
  }

  async summarize(texts: readonly string[], targetWords: number): Promise<{ summary: string; model: string }> {
    const body = await this.call<{ summary?: unknown; model?: unknown }>('/summarize', { texts, target_words: targetWords });
    if (typeof body.summary !== 'string') throw this.invalidResponse('/summarize', 'LLM bridge /summarize returned no summary');
    return { summary: body.summary, model: typeof body.model === 'string' ? body.model : 'unknown' };
  }

  async extractEntities(text: string): Promise<TextEntities> {
    const body = await this.call<{ entities?: Partial<Record<keyof TextEntities, unknown>> }>('/extract', { text });
    const entities = { ...EMPTY_ENTITIES };
    for (const key of Object.keys(EMPTY_ENTITIES) as Array<keyof TextEntities>) {
      const list = body.entities?.[key];
      entities[key] = Array.isArray(list) ? list.filter((item): item is string => typeof item === 'string') : [];
    }
    return entities;
  }

  async chat(messages: readonly ChatTurn[], options: { maxTokens?: number } = {}): Promise<{ content: string; model: string }> {
    const body = await this.call<{ model?: unknown; choices?: Array<{ message?: { content?: unknown } }> }>(
      '/v1/chat/completions',
      { messages, stream: false, temperature: 0, ...(options.maxTokens ? { max_tokens: options.maxTokens } : {}) });
    const content = body.choices?.[0]?.message?.content;
    if (typeof content !== 'string') throw this.invalidResponse('/v1/chat/completions', 'LLM bridge chat completion returned no message');
    return { content, model: typeof body.model === 'string' ? body.model : 'unknown' };
  }

  private call<T>(path: string, payload: unknown): Promise<T> {
    return callBridge<T>(this.baseUrl, this.options.timeoutMs, 'POST', path, payload, this.options.apiKey);
  }

  private invalidResponse(path: string, message: string): UpstreamError {
    return new UpstreamError({ provider: 'bridge', kind: 'invalid_response', url: `${this.baseUrl}${path}`, message });
  }
}
