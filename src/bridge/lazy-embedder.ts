import type { TextEmbedder } from '../ports/text-embedder.js';
import { BridgeError, BridgeErrorCode } from './bridge.errors.js';
import type { EmbeddingProvider } from './bridge.providers.js';

export interface LazyEmbedderOptions {
  load: () => Promise<TextEmbedder>;
  /** Reported by model/dimension until the embedder is loaded. */
  expectedModel: string;
  expectedDimension: number;
}

/**
 * The builtin embedder loaded on first use, so the bridge starts fast. Concurrent
 * first calls share one load; a failed load is reported as 503 and retried on
 * the next call.
 */
export function createLazyEmbedder(options: LazyEmbedderOptions): EmbeddingProvider {
  let embedder: TextEmbedder | undefined;
  let loading: Promise<TextEmbedder> | undefined;
  let lastError: Error | undefined;

  function get(): Promise<TextEmbedder> {
    if (embedder) return Promise.resolve(embedder);
    loading ??= options.load().then(
      (loaded) => {
        embedder = loaded;
        lastError = undefined;
        return loaded;
      },
      (err: unknown) => {
        loading = undefined;
        lastError = err instanceof Error ? err : new Error(String(err));
        throw new BridgeError(503, BridgeErrorCode.EMBEDDER_UNAVAILABLE, `The builtin embedder could not be loaded: ${lastError.message}`, { cause: err });
      },
    );
    return loading;
  }

  return {
    provider: 'builtin',
    get model() {
      return embedder?.model ?? options.expectedModel;
    },
    get dimension() {
      return embedder?.dimension ?? options.expectedDimension;
    },
    get loaded() {
      return embedder !== undefined;
    },
    async embed(texts) {
      return (await get()).embed(texts);
    },
    async check() {
      if (lastError) throw lastError;
    },
  };
}
