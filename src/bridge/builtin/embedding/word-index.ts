import { FNV_OFFSET, fnvExtendRange } from './lexical-hashing.js';

/**
 * The row of each word in a "\n"-joined word list, as an open-addressing hash table in typed arrays over that one
 * string. A Map of 341,479 words built a string and an entry for each: 30 MB of small objects, 340-390 ms to build on
 * an idle machine with 60-70 ms between turns of the event loop, and a controller that loaded its query embedder
 * under load refused writes while it collected them (bench/NOTES.md, session 32). This allocates three arrays.
 */
export class WordIndex {
  private constructor(
    private readonly words: string,
    /** Where row r's word starts in `words`; entry `size` is one past the end of the last (after a virtual "\n"). */
    private readonly starts: Int32Array,
    /** Row + 1 at each slot; 0 is an empty slot. */
    private readonly slots: Int32Array,
  ) {}

  get size(): number {
    return this.starts.length - 1;
  }

  /** The first row holding `word`, or -1. */
  indexOf(word: string): number {
    const mask = this.slots.length - 1;
    for (let slot = hashOf(word, 0, word.length) & mask; ; slot = (slot + 1) & mask) {
      const entry = this.slots[slot]!;
      if (entry === 0) return -1;
      const row = entry - 1;
      const start = this.starts[row]!;
      if (this.starts[row + 1]! - 1 - start === word.length && this.words.startsWith(word, start)) return row;
    }
  }

  /**
   * Indexes the `size` words of `words` ("\n"-separated, none containing "\n"), yielding after every `wordsAStep`;
   * a word listed twice keeps its first row.
   */
  static *build(words: string, size: number, wordsAStep: number): Generator<void, WordIndex> {
    const starts = new Int32Array(size + 1);
    // At most half full: a miss (a word the vectors do not know) ends at an empty slot after a short run.
    const slots = new Int32Array(2 ** Math.ceil(Math.log2(Math.max(2, size * 2))));
    const mask = slots.length - 1;
    let start = 0;
    for (let row = 0; row < size; row += 1) {
      if (row > 0 && row % wordsAStep === 0) yield;
      const found = words.indexOf('\n', start);
      const end = found < 0 ? words.length : found;
      starts[row] = start;
      for (let slot = hashOf(words, start, end) & mask; ; slot = (slot + 1) & mask) {
        const entry = slots[slot]!;
        if (entry === 0) { slots[slot] = row + 1; break; }
        if (sameWord(words, starts[entry - 1]!, start, end - start)) break;
      }
      start = end + 1;
    }
    starts[size] = start;
    return new WordIndex(words, starts, slots);
  }
}

/** FNV-1a over the UTF-16 code units of text[from, to), as the embedder's feature hashes are. */
const hashOf = (text: string, from: number, to: number): number => fnvExtendRange(FNV_OFFSET, text, from, to);

/** Whether the word at `earlier` is the `length` code units at `at` (a "\n" ends the earlier word). */
function sameWord(text: string, earlier: number, at: number, length: number): boolean {
  if (text.charCodeAt(earlier + length) !== 10 && earlier + length !== text.length) return false;
  for (let i = 0; i < length; i += 1) if (text.charCodeAt(earlier + i) !== text.charCodeAt(at + i)) return false;
  return true;
}
