import { UpstreamError } from '../domain/upstream-error.js';

/** Scales a vector to unit length (a zero vector stays zero). */
export function l2Normalize(values: ArrayLike<number>): Float32Array {
  const out = Float32Array.from(values as ArrayLike<number>);
  let sum = 0;
  for (let i = 0; i < out.length; i++) sum += out[i]! * out[i]!;
  const norm = Math.sqrt(sum);
  if (norm > 0) for (let i = 0; i < out.length; i++) out[i] = out[i]! / norm;
  return out;
}

/**
 * Checks what an upstream returned: one finite numeric vector per input, all of one
 * dimension. Returns them L2-normalized, as the TextEmbedder port promises.
 */
export function toNormalizedVectors(raw: unknown, expected: number, provider: string, url: string): Float32Array[] {
  const fail = (message: string): never => {
    throw new UpstreamError({ provider, kind: 'invalid_response', url, message });
  };
  if (!Array.isArray(raw)) return fail('embeddings missing from response');
  if (raw.length !== expected) return fail(`expected ${expected} embeddings, got ${raw.length}`);
  let dimension = -1;
  return raw.map((vector: unknown, i) => {
    if (!Array.isArray(vector) || vector.length === 0) return fail(`embedding ${i} is not a non-empty array`);
    if (dimension === -1) dimension = vector.length;
    if (vector.length !== dimension) return fail(`embedding ${i} has dimension ${vector.length}, expected ${dimension}`);
    for (const x of vector) if (typeof x !== 'number' || !Number.isFinite(x)) return fail(`embedding ${i} holds a non-numeric value`);
    return l2Normalize(vector as number[]);
  });
}

/** Dimensions of common embedding models, so health can report one before the first call. */
export const KNOWN_EMBEDDING_DIMENSIONS: Readonly<Record<string, number>> = {
  'nomic-embed-text': 768,
  'mxbai-embed-large': 1024,
  'all-minilm': 384,
  'snowflake-arctic-embed': 1024,
  'bge-m3': 1024,
  'text-embedding-3-small': 1536,
  'text-embedding-3-large': 3072,
  'text-embedding-ada-002': 1536,
};

export function knownDimension(model: string): number | undefined {
  const bare = model.replace(/:latest$/, '');
  return KNOWN_EMBEDDING_DIMENSIONS[bare];
}
