import { join } from 'node:path';

/**
 * What the builtin embedder is, without loading it (the bridge reports it before the first /embed; the
 * controller embeds questions with it when the index holds its vectors).
 * Bump the model whenever DEFAULT_RECIPE, the tokenizer or the hashing changes: stored vectors become incomparable.
 */
export const BUILTIN_EMBEDDING_MODEL = 'builtin-hybrid-v1';
export const BUILTIN_EMBEDDING_DIMENSION = 768;

/** Where the bridge keeps the builtin model's word-vector cache, and the controller reads it: <data_dir>/cache. */
export function modelCacheDir(dataDir: string): string {
  return join(dataDir, 'cache');
}
