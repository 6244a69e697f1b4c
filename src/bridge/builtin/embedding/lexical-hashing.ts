/** 32-bit FNV-1a over UTF-16 code units: tiny, deterministic across platforms and runs. */
export function hashFeature(feature: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < feature.length; i += 1) {
    hash ^= feature.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return hash >>> 0;
}

/**
 * Feature hashing ("hashing trick"): adds `weight` to one of `length` buckets
 * starting at `offset`, with a hash-derived sign so collisions cancel in
 * expectation instead of inflating similarity.
 */
export function addHashedFeature(target: Float32Array, offset: number, length: number, feature: string, weight: number): void {
  const hash = hashFeature(feature);
  const bucket = offset + (hash % length);
  target[bucket]! += hash & 0x80000000 ? -weight : weight;
}

/** Character n-grams of a word padded with boundary marks, e.g. "cat" -> "<ca", "cat", "at>". */
export function charNgrams(word: string, n: number): string[] {
  const padded = `<${word}>`;
  if (padded.length <= n) return [padded];
  const grams: string[] = [];
  for (let i = 0; i + n <= padded.length; i += 1) grams.push(padded.slice(i, i + n));
  return grams;
}
