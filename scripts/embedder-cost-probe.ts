/**
 * CPU a text of the builtin embedder (the pipeline's embedding cost with the offline engine) over the bench
 * corpus, and a SHA-256 of the vectors it made: an optimization of the embedder must leave the digest unchanged,
 * or every stored vector would differ from a new question's (the model's name would then have to change).
 *
 *   npx tsx scripts/embedder-cost-probe.ts --texts 30000
 *
 * Uses the tests' model cache (SHARED_MODEL_CACHE), converting it first if it is missing.
 */
import { createHash } from 'node:crypto';
import { createBuiltinEmbedder } from '../src/bridge/builtin/embedding/builtin-embedder.js';
import { generateConversation } from '../bench/lib/corpus.js';
import { SHARED_MODEL_CACHE } from '../test/helpers/service-harness.js';
import { option } from './lib/probe-options.js';

const count = Number(option('texts', '30000'));
const embedder = await createBuiltinEmbedder({ cacheDir: SHARED_MODEL_CACHE });
const texts: string[] = [];
for (let i = 0; texts.length < count; i += 1) {
  texts.push(...generateConversation(i, { seed: 42, messagesPerConversation: 10 }).messages.map((m) => m.content));
}
texts.length = count;
// A first pass warms the JIT; the measured pass is the second, as a long-running bridge would see it.
await embedder.embed(texts.slice(0, 2000));
const cpu0 = process.cpuUsage();
const started = performance.now();
const vectors = await embedder.embed(texts);
const wallUs = (performance.now() - started) * 1000;
const cpu = process.cpuUsage(cpu0);
const digest = createHash('sha256');
for (const vector of vectors) digest.update(Buffer.from(vector.buffer, vector.byteOffset, vector.byteLength));
console.log(`${count} texts: ${(wallUs / count).toFixed(1)} µs wall, ${((cpu.user + cpu.system) / count).toFixed(1)} µs CPU a text; ` +
  `vectors sha256 ${digest.digest('hex')}`);
