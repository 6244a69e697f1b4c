import { readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';

/**
 * The float32 vectors of the first graph, kept until there are enough to learn the partitions from (the graph
 * stores i8 and cannot give them back). A re-added key keeps its newest vector; a removed key is dropped.
 * Saved beside the graph, so a restart before the split still splits.
 */
export class SeedVectors {
  private readonly rows = new Map<number, Float32Array>();

  constructor(readonly dimension: number) {}

  get size(): number {
    return this.rows.size;
  }

  put(keys: readonly number[], matrix: Float32Array): void {
    keys.forEach((key, i) => this.rows.set(key, matrix.slice(i * this.dimension, (i + 1) * this.dimension)));
  }

  remove(keys: readonly number[]): void {
    for (const key of keys) this.rows.delete(key);
  }

  /** Every vector, in the order first added: keys and one row of `dimension` floats per key. */
  all(): { keys: number[]; matrix: Float32Array } {
    const keys = [...this.rows.keys()];
    const matrix = new Float32Array(keys.length * this.dimension);
    keys.forEach((key, i) => matrix.set(this.rows.get(key)!, i * this.dimension));
    return { keys, matrix };
  }

  /** File layout: u32 count, count float64 keys, count rows of float32. Written to a temp file, then renamed. */
  save(file: string): void {
    const { keys, matrix } = this.all();
    const header = Buffer.alloc(4);
    header.writeUInt32LE(keys.length);
    const temp = `${file}.tmp`;
    writeFileSync(temp, Buffer.concat([header, Buffer.from(Float64Array.from(keys).buffer), Buffer.from(matrix.buffer)]));
    renameSync(temp, file);
  }

  /** The saved vectors, or null when the file is missing or not of this dimension. */
  static load(file: string, dimension: number): SeedVectors | null {
    let bytes: Buffer;
    try {
      bytes = readFileSync(file);
    } catch {
      return null;
    }
    if (bytes.byteLength < 4) return null;
    const count = bytes.readUInt32LE(0);
    if (bytes.byteLength !== 4 + count * 8 + count * dimension * 4) return null;
    const copy = new Uint8Array(bytes.byteLength - 4);
    copy.set(bytes.subarray(4));
    const keys = Array.from(new Float64Array(copy.buffer, 0, count));
    const matrix = new Float32Array(copy.buffer, count * 8, count * dimension);
    const seed = new SeedVectors(dimension);
    seed.put(keys, matrix);
    return seed;
  }

  static remove(file: string): void {
    rmSync(file, { force: true });
  }
}
