import { UpstreamError, type EmbeddingBatch, type EmbeddingProvider } from '../../ports/embedding-provider.js';

export interface BridgeClientOptions {
  url: string;
  timeoutMs: number;
}

interface EmbedResponse {
  model: string;
  dimension: number;
  embeddings: number[][];
}

const isRetryableStatus = (status: number) => status === 408 || status === 429 || status >= 500;

/** The controller's view of the LLM bridge, over HTTP. Retries are the caller's (the embedding worker backs off). */
export class HttpBridgeClient implements EmbeddingProvider {
  private readonly baseUrl: string;

  constructor(private readonly options: BridgeClientOptions) {
    this.baseUrl = options.url.replace(/\/+$/, '');
  }

  async embed(texts: readonly string[]): Promise<EmbeddingBatch> {
    const body = await this.call<EmbedResponse>('POST', '/embed', { texts });
    if (!Array.isArray(body.embeddings) || body.embeddings.length !== texts.length) {
      throw new UpstreamError(`Bridge returned ${body.embeddings?.length ?? 0} embeddings for ${texts.length} texts`, false);
    }
    return {
      model: body.model,
      dimension: body.dimension,
      vectors: body.embeddings.map((embedding) => Float32Array.from(embedding)),
    };
  }

  async health(): Promise<{ model?: string; dimension?: number }> {
    const body = await this.call<{ status?: string; providers?: { embeddings?: { model?: string; dimension?: number } } }>(
      'GET', '/health');
    if (body.status !== undefined && body.status !== 'healthy') throw new UpstreamError(`Bridge reports ${body.status}`, true);
    return { model: body.providers?.embeddings?.model, dimension: body.providers?.embeddings?.dimension };
  }

  private async call<T>(method: string, path: string, body?: unknown): Promise<T> {
    let response: Response;
    try {
      response = await fetch(`${this.baseUrl}${path}`, {
        method,
        headers: body === undefined ? {} : { 'content-type': 'application/json' },
        body: body === undefined ? undefined : JSON.stringify(body),
        signal: AbortSignal.timeout(this.options.timeoutMs),
      });
    } catch (error) {
      const reason = (error as Error).name === 'TimeoutError' ? `no answer within ${this.options.timeoutMs} ms` : (error as Error).message;
      throw new UpstreamError(`LLM bridge at ${this.baseUrl} is unreachable: ${reason}`, true);
    }
    const text = await response.text();
    if (!response.ok) {
      let detail = text.slice(0, 300);
      try { detail = (JSON.parse(text) as { error?: string }).error ?? detail; } catch { /* not JSON */ }
      throw new UpstreamError(`LLM bridge ${method} ${path} failed with ${response.status}: ${detail}`,
        isRetryableStatus(response.status), response.status);
    }
    try {
      return JSON.parse(text) as T;
    } catch {
      throw new UpstreamError(`LLM bridge ${method} ${path} returned invalid JSON`, true, response.status);
    }
  }
}
