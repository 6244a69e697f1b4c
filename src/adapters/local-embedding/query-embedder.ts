import type { EmbeddingProvider } from '../../ports/embedding-provider.js';
import type { Logger } from '../../ports/logger.js';
import type { QueryEmbedder } from '../../ports/query-embedder.js';
import type { TextEmbedder } from '../../ports/text-embedder.js';

export interface InProcessQueryEmbedderOptions {
  /** The bridge: every question the local embedder cannot answer. */
  remote: EmbeddingProvider;
  /** The model the local embedder produces; only an index of this model is asked in process. */
  localModel: string;
  /** Loads the local embedder; rejects when it cannot (no cache on this machine). Called at most once. */
  loadLocal: () => Promise<TextEmbedder>;
  log: Logger;
}

/** Every question goes to the bridge (a provider other than the builtin, or `search.query_embedding: bridge`). */
export function bridgeQueryEmbedder(remote: EmbeddingProvider): QueryEmbedder {
  return { embedQuery: (text) => remote.embed([text]) };
}

/**
 * Questions embedded in the controller's own process when the index holds the
 * builtin model's vectors: the builtin embedder is deterministic, so its vector
 * is the bridge's to the bit, without the HTTP round trip (~2 ms, more under load)
 * and without the bridge having to be up. The embedder loads in the background on
 * the first question that could use it (the bridge answers meanwhile); if it cannot
 * load, every question goes to the bridge.
 */
export function inProcessQueryEmbedder(options: InProcessQueryEmbedderOptions): QueryEmbedder {
  let local: TextEmbedder | null = null;
  let loading = false;

  const startLoading = () => {
    loading = true;
    options.loadLocal().then(
      (loaded) => {
        if (loaded.model !== options.localModel) {
          options.log.warn({ model: loaded.model, expected: options.localModel }, 'in-process query embedder has another model; questions go to the bridge');
          return;
        }
        local = loaded;
        options.log.info({ model: loaded.model }, 'search questions are embedded in process');
      },
      (error: unknown) => options.log.info({ err: error }, 'in-process query embedder unavailable; questions go to the bridge'),
    );
  };

  return {
    async embedQuery(text, model) {
      if (model !== options.localModel) return options.remote.embed([text]);
      if (local === null) {
        if (!loading) startLoading();
        return options.remote.embed([text]);
      }
      const vectors = await local.embed([text]);
      return { model: local.model, dimension: local.dimension, vectors };
    },
  };
}
