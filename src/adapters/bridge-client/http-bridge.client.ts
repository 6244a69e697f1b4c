import { UpstreamError } from '../../domain/upstream-error.js';
import type { EmbeddingBatch, EmbeddingProvider } from '../../ports/embedding-provider.js';
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
  /** A bridge that does not know `encoding_format` answers with JSON numbers. */
  embeddings?: number[][];
  embeddings_base64?: string[];
}

/** The controller's view of the LLM bridge, over HTTP. Retries are the caller's (the embedding worker backs off). */
export class HttpBridgeClient implements EmbeddingProvider {
  private readonly baseUrl: string;

  constructor(private readonly options: BridgeClientOptions) {
    this.baseUrl = options.url.replace(/\/+$/, '');
  }

  async embed(texts: readonly string[]): Promise<EmbeddingBatch> {
    // base64 of float32: a quarter of the bytes of JSON numbers, and no number parsing on either side.
    const body = await this.call<EmbedResponse>('POST', '/embed', { texts, encoding_format: 'base64' });
    const vectors = Array.isArray(body.embeddings_base64)
      ? body.embeddings_base64.map((encoded) => decodeFloat32(encoded, body.dimension, (message) => this.invalidResponse('/embed', message)))
      : body.embeddings?.map((embedding) => Float32Array.from(embedding));
    if (!vectors || vectors.length !== texts.length) {
      throw this.invalidResponse('/embed', `Bridge returned ${vectors?.length ?? 0} embeddings for ${texts.length} texts`);
    }
    return { model: body.model, dimension: body.dimension, vectors };
  }

  async health(): Promise<{ model?: string; dimension?: number }> {
    const body = await this.call<{ status?: string; providers?: { embeddings?: { model?: string; dimension?: number } } }>(
      'GET', '/health');
    if (body.status !== undefined && body.status !== 'healthy') throw this.invalidResponse('/health', `Bridge reports ${body.status}`);
    return { model: body.providers?.embeddings?.model, dimension: body.providers?.embeddings?.dimension };
  }

  private call<T>(method: 'GET' | 'POST', path: string, body?: unknown): Promise<T> {
    return callBridge<T>(this.baseUrl, this.options.timeoutMs, method, path, body, this.options.apiKey);
  }

  private invalidResponse(path: string, message: string): UpstreamError {
    return new UpstreamError({ provider: 'bridge', kind: 'invalid_response', url: `${this.baseUrl}${path}`, message });
  }
}

/** Little-endian float32 from base64, copied into its own aligned buffer. */
function decodeFloat32(encoded: unknown, dimension: number, invalid: (message: string) => Error): Float32Array {
  const bytes = typeof encoded === 'string' ? Buffer.from(encoded, 'base64') : Buffer.alloc(0);
  if (bytes.byteLength !== dimension * 4) {
    throw invalid(`Bridge returned a base64 embedding of ${bytes.byteLength} bytes; expected ${dimension * 4}`);
  }
  const vector = new Float32Array(dimension);
  new Uint8Array(vector.buffer).set(bytes);
  return vector;
}
