/** usearch's exactSearch reads a typed array from the start of its buffer, ignoring its offset: a view is copied. */
export function ownBuffer(vectors: Float32Array): Float32Array {
  return vectors.byteOffset === 0 && vectors.byteLength === vectors.buffer.byteLength ? vectors : vectors.slice();
}
