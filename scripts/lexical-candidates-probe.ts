/**
 * Does a lexical candidate pool rescue the graph's recall on short questions (issue 16)? Embeds the bench
 * corpus's first --messages messages with the builtin embedder in process, finds the exact top 10 of the
 * bench's 100 recall questions, then measures recall@10 after the exact f32 re-rank of:
 * - the graph's --candidates (116) alone (one build, M 64 / 64 / --expansion-search (384, the default), i8, --threads inserts);
 * - the BM25 top N of the question's stemmed content words over each message's own words, alone;
 * - both together.
 *
 *   npx tsx scripts/lexical-candidates-probe.ts --messages 1000000 --threads 2 --lexical 16,32,64
 *   npx tsx scripts/lexical-candidates-probe.ts --messages 300000 --no-graph
 *
 * Its BM25 scores every match of the question's words. The service's full text, which scores only the newest
 * 20,000 matches and ranks questions of common words by their rarer ones, gave far less (0.844 -> 0.853 at
 * 1,140,000 messages, for 42 ms a search): see bench/RESULTS.md, session 11. Not in the service.
 */
import { loadavg } from 'node:os';
import usearch from 'usearch';
import { recallQuestions } from '../bench/lib/search-queries.js';
import { createBuiltinEmbedder } from '../src/bridge/builtin/embedding/builtin-embedder.js';
import { contentWords, stemWord, tokenizeWords } from '../src/bridge/builtin/embedding/text-tokenizer.js';
import { SHARED_MODEL_CACHE } from '../test/helpers/service-harness.js';
import { DIMENSION, embedCorpus, mean, recallCheck } from './lib/corpus-vectors.js';
import { option } from './lib/probe-options.js';

const size = Number(option('messages', '300000'));
const queryCount = Number(option('queries', '100'));
const threads = Number(option('threads', '2'));
const graphCandidates = Number(option('candidates', '116'));
const lexicalCounts = option('lexical', '16,32,64,116').split(',').map(Number);
const withGraph = !process.argv.includes('--no-graph');
const expansionSearch = Number(option('expansion-search', '384'));

const embedder = await createBuiltinEmbedder({ cacheDir: SHARED_MODEL_CACHE });
const questions = recallQuestions(queryCount);
const questionTerms = questions.map((q) => [...new Set(contentWords(q).map(stemWord))]);
const wanted = new Set(questionTerms.flat());

// Postings of the questions' terms only: row, term frequency; and every message's length in terms.
const postings = new Map<string, { rows: number[]; tf: number[] }>([...wanted].map((t) => [t, { rows: [], tf: [] }]));
const lengths = new Uint16Array(size);
const matrix = await embedCorpus(embedder, size, (row, text) => {
  const terms = tokenizeWords(text).map(stemWord);
  lengths[row] = terms.length;
  const counts = new Map<string, number>();
  for (const term of terms) if (wanted.has(term)) counts.set(term, (counts.get(term) ?? 0) + 1);
  for (const [term, n] of counts) { const list = postings.get(term)!; list.rows.push(row); list.tf.push(n); }
});
const averageLength = lengths.reduce((a, b) => a + b, 0) / size;

function bm25(terms: string[], n: number): number[] {
  const scores = new Map<number, number>();
  for (const term of terms) {
    const list = postings.get(term)!;
    const idf = Math.log(1 + (size - list.rows.length + 0.5) / (list.rows.length + 0.5));
    list.rows.forEach((row, i) => {
      const tf = list.tf[i]!;
      const score = idf * (tf * 2.2) / (tf + 1.2 * (0.25 + 0.75 * lengths[row]! / averageLength));
      scores.set(row, (scores.get(row) ?? 0) + score);
    });
  }
  return [...scores].sort((a, b) => b[1] - a[1]).slice(0, n).map(([row]) => row);
}

const { queries, exactKeys, dot, recall } = await recallCheck(embedder, matrix, queryCount);

for (const n of lexicalCounts) {
  const pools = questionTerms.map((terms) => bm25(terms, n));
  console.log(`lexical top ${n} alone: recall@10 ${mean(pools.map((pool, q) => recall(q, pool))).toFixed(3)}`);
}

if (withGraph) {
  const index = new usearch.Index({ dimensions: DIMENSION, metric: usearch.MetricKind.Cos, quantization: usearch.ScalarKind.I8,
    connectivity: 64, expansion_add: 64, expansion_search: expansionSearch, multi: false });
  const started = performance.now();
  const step = 32 * Math.max(1, threads);
  for (let from = 0; from < size; from += step) {
    const to = Math.min(size, from + step);
    const keys = new BigUint64Array(to - from);
    for (let i = 0; i < keys.length; i += 1) keys[i] = BigInt(from + i);
    index.add(keys, matrix.subarray(from * DIMENSION, to * DIMENSION), threads);
  }
  console.log(`graph built in ${((performance.now() - started) / 1000).toFixed(1)} s, load ${loadavg()[0]!.toFixed(1)}`);
  const graphPools = queries.map((query) =>
    Array.from((index.search(query, graphCandidates, 1) as { keys: BigUint64Array }).keys, Number));
  console.log(`graph ${graphCandidates} alone: recall@10 ${mean(graphPools.map((pool, q) => recall(q, pool))).toFixed(3)}`);
  // Questions none of whose words is in any message: no full-text match can help them; does a wider graph search?
  const unmatched = questionTerms.map((terms, q) => terms.every((term) => postings.get(term)!.rows.length === 0) ? q : -1)
    .filter((q) => q >= 0);
  if (unmatched.length > 0) {
    for (const factor of [1, 4, 8]) {
      const per = unmatched.map((q) => recall(q,
        Array.from((index.search(queries[q]!, graphCandidates * factor, 1) as { keys: BigUint64Array }).keys, Number)));
      console.log(`${unmatched.length} questions without a matching word, graph ${graphCandidates * factor}: recall@10 ${mean(per).toFixed(3)}`);
    }
  }
  for (const n of lexicalCounts) {
    const both = graphPools.map((pool, q) => [...pool, ...bm25(questionTerms[q]!, n)]);
    const per = both.map((pool, q) => recall(q, pool));
    console.log(`graph ${graphCandidates} + lexical top ${n}: recall@10 ${mean(per).toFixed(3)}, ` +
      `questions under 0.5: ${per.filter((r) => r < 0.5).length}`);
    if (process.argv.includes('--per-question')) {
      per.forEach((r, q) => {
        if (r >= 0.5) return;
        const query = queries[q]!;
        const exactScores = exactKeys[q]!.map((row) => dot(row, query).toFixed(2)).join(' ');
        const terms = questionTerms[q]!;
        const has = exactKeys[q]!.map((row) => terms.filter((t) => postings.get(t)!.rows.includes(row)).length).join('');
        console.log(`  ${JSON.stringify(questions[q])} terms ${terms.join(',')} df ${terms.map((t) => postings.get(t)!.rows.length).join(',')}` +
          ` recall ${r}; exact ${exactScores}; terms in exact ${has}`);
      });
    }
  }
}
