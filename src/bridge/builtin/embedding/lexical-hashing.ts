/** FNV-1a's 32-bit offset basis: the hash of the empty string. */
export const FNV_OFFSET = 0x811c9dc5;

/** FNV-1a state `hash` carried on over the UTF-16 code units of `text` (unsigned 32-bit). */
export function fnvExtend(hash: number, text: string): number {
  return fnvExtendRange(hash, text, 0, text.length);
}

/** fnvExtend over text[from, to), without making that substring. */
export function fnvExtendRange(hash: number, text: string, from: number, to: number): number {
  let state = hash;
  for (let i = from; i < to; i += 1) {
    state ^= text.charCodeAt(i);
    state = Math.imul(state, 0x01000193);
  }
  return state >>> 0;
}

/** 32-bit FNV-1a over UTF-16 code units: tiny, deterministic across platforms and runs. */
export function hashFeature(feature: string): number {
  return fnvExtend(FNV_OFFSET, feature);
}

/**
 * Feature hashing ("hashing trick"): adds `weight` to one of `length` buckets
 * starting at `offset`, with a hash-derived sign so collisions cancel in
 * expectation instead of inflating similarity.
 */
export function addHashedFeature(target: Float32Array, offset: number, length: number, feature: string, weight: number): void {
  addHashed(target, offset, length, hashFeature(feature), weight);
}

/** addHashedFeature for a feature already hashed. */
export function addHashed(target: Float32Array, offset: number, length: number, hash: number, weight: number): void {
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
