/**
 * What loading the builtin embedder's word vectors costs the thread that loads them: the controller loads them on
 * its request thread at the first question it embeds, so the longest time that thread goes without turning its
 * event loop is what a request waits (and what admission control sheds on).
 *
 *   npx tsx scripts/word-vectors-load-probe.ts [--rounds 5] [--lookups 200000]
 *
 * Each round decodes the tests' model cache (SHARED_MODEL_CACHE, converted first if missing) from a buffer already
 * read, with a 1 ms interval timer running: prints the wall time, the longest gap between the timer's turns, the
 * heap it leaves behind, and the time of `indexOf` over the bench corpus's words.
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { decodeWordVectorsInSteps, loadWordVectors, WORD_VECTOR_CACHE_FILE, type WordVectors } from '../src/bridge/builtin/embedding/word-vector-cache.js';
import { generateConversation } from '../bench/lib/corpus.js';
import { SHARED_MODEL_CACHE } from '../test/helpers/service-harness.js';
import { option } from './lib/probe-options.js';

const rounds = Number(option('rounds', '5'));
const lookups = Number(option('lookups', '200000'));

await loadWordVectors({ cacheDir: SHARED_MODEL_CACHE });
const bytes = await readFile(join(SHARED_MODEL_CACHE, WORD_VECTOR_CACHE_FILE));
const words: string[] = [];
for (let i = 0; words.length < lookups; i += 1) {
  for (const message of generateConversation(i, { seed: 42, messagesPerConversation: 10 }).messages) {
    words.push(...message.content.toLowerCase().split(/[^\p{L}\p{N}']+/u).filter(Boolean));
  }
}
words.length = lookups;

const gc = (globalThis as { gc?: () => void }).gc;
const kept: WordVectors[] = [];
for (let round = 1; round <= rounds; round += 1) {
  gc?.();
  const heapBefore = process.memoryUsage().heapUsed;
  let last = performance.now();
  let longestGap = 0;
  const ticker = setInterval(() => {
    const now = performance.now();
    longestGap = Math.max(longestGap, now - last);
    last = now;
  }, 1);
  const started = performance.now();
  const vectors = await decodeWordVectorsInSteps(bytes);
  const wallMs = performance.now() - started;
  longestGap = Math.max(longestGap, performance.now() - last);
  clearInterval(ticker);
  gc?.();
  const heapMb = (process.memoryUsage().heapUsed - heapBefore) / 2 ** 20;
  kept.length = 0;
  kept.push(vectors);
  const lookupStart = performance.now();
  let found = 0;
  for (const word of words) if (vectors.indexOf(word) >= 0) found += 1;
  const lookupNs = ((performance.now() - lookupStart) * 1e6) / words.length;
  console.log(`round ${round}: ${vectors.size} words decoded in ${wallMs.toFixed(1)} ms, longest gap between turns ` +
    `${longestGap.toFixed(1)} ms, heap +${heapMb.toFixed(1)} MB${gc ? '' : ' (run with --expose-gc for a settled figure)'}; ` +
    `indexOf ${lookupNs.toFixed(0)} ns a word (${found} of ${words.length} known)`);
}
