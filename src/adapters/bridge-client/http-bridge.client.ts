import { UpstreamError, type EmbeddingBatch, type EmbeddingProvider } from '../../ports/embedding-provider.js';
import { callBridge } from './bridge-http.js';

export interface BridgeClientOptions {
  url: string;
  timeoutMs: number;
  /** Sent as a bearer token: the bridge requires the service's key. */
  apiKey?: string;
}

interface EmbedResponse {
  model: string;
  dimension: number;
  embeddings: number[][];
}

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

  private call<T>(method: 'GET' | 'POST', path: string, body?: unknown): Promise<T> {
    return callBridge<T>(this.baseUrl, this.options.timeoutMs, method, path, body, this.options.apiKey);
  }
}
