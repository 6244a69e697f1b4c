import type { ChatTurn, LanguageModel, TextEntities } from '../../ports/language-model.js';
import { UpstreamError } from '../../ports/embedding-provider.js';
import type { BridgeClientOptions } from './http-bridge.client.js';

const isRetryableStatus = (status: number) => status === 408 || status === 429 || status >= 500;
const EMPTY_ENTITIES: TextEntities = { people: [], places: [], organizations: [], dates: [], emails: [], urls: [] };

/** The bridge's /summarize, /extract and /v1/chat/completions, over HTTP (sibling of HttpBridgeClient's /embed). */
export class HttpBridgeLanguageClient implements LanguageModel {
  private readonly baseUrl: string;

  constructor(private readonly options: BridgeClientOptions) {
    this.baseUrl = options.url.replace(/\/+$/, '');
  }

  async summarize(texts: readonly string[], targetWords: number): Promise<{ summary: string; model: string }> {
    const body = await this.call<{ summary?: unknown; model?: unknown }>('/summarize', { texts, target_words: targetWords });
    if (typeof body.summary !== 'string') throw new UpstreamError('LLM bridge /summarize returned no summary', true);
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
    if (typeof content !== 'string') throw new UpstreamError('LLM bridge chat completion returned no message', true);
    return { content, model: typeof body.model === 'string' ? body.model : 'unknown' };
  }

  private async call<T>(path: string, payload: unknown): Promise<T> {
    let response: Response;
    try {
      response = await fetch(`${this.baseUrl}${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(payload),
        signal: AbortSignal.timeout(this.options.timeoutMs),
      });
    } catch (error) {
      const reason = (error as Error).name === 'TimeoutError' ? `no answer within ${this.options.timeoutMs} ms` : (error as Error).message;
      throw new UpstreamError(`LLM bridge at ${this.baseUrl} is unreachable: ${reason}`, true);
    }
    const text = await response.text();
    if (!response.ok) {
      let detail = text.slice(0, 300);
      try {
        const parsed = JSON.parse(text) as { error?: string | { message?: string } };
        detail = (typeof parsed.error === 'string' ? parsed.error : parsed.error?.message) ?? detail;
      } catch { /* not JSON */ }
      throw new UpstreamError(`LLM bridge POST ${path} failed with ${response.status}: ${detail}`,
        isRetryableStatus(response.status), response.status);
    }
    try {
      return JSON.parse(text) as T;
    } catch {
      throw new UpstreamError(`LLM bridge POST ${path} returned invalid JSON`, true, response.status);
    }
  }
}
