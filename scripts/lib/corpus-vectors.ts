/**
 * What the graph probes share: the bench corpus embedded in process, and recall@10 of a candidate pool after the
 * exact f32 re-rank, against the exact top 10 of the bench's recall questions.
 */
import usearch from 'usearch';
import { generateConversation } from '../../bench/lib/corpus.js';
import { recallQuestions } from '../../bench/lib/search-queries.js';
import type { TextEmbedder } from '../../src/ports/text-embedder.js';

export const DIMENSION = 768;

/**
 * The corpus's first `size` messages (10-message conversations, seed 42), one row of DIMENSION floats each, as the
 * scale bench stores them; `onText` sees each message's text with its row.
 */
export async function embedCorpus(embedder: TextEmbedder, size: number, onText?: (row: number, text: string) => void): Promise<Float32Array> {
  const matrix = new Float32Array(size * DIMENSION);
  const started = performance.now();
  for (let c = 0, row = 0; row < size; c += 1) {
    const conversation = generateConversation(c, { seed: 42, messagesPerConversation: 10 });
    const texts = conversation.messages.map((m) => m.content).slice(0, size - row);
    const vectors = await embedder.embed(texts);
    vectors.forEach((vector, i) => matrix.set(vector, (row + i) * DIMENSION));
    if (onText) texts.forEach((text, i) => onText(row + i, text));
    row += texts.length;
  }
  console.log(`embedded ${size} in ${((performance.now() - started) / 1000).toFixed(1)} s`);
  return matrix;
}

export interface RecallCheck {
  questions: string[];
  queries: Float32Array[];
  /** Each question's exact ten rows, best first. */
  exactKeys: number[][];
  /** Cosine of row `row` with `query` (the corpus's vectors and the questions' are unit length). */
  dot(row: number, query: Float32Array): number;
  /** Recall@10 of the exact re-rank of `pool` for question `q` (rows tied with the exact 10th count). */
  recall(q: number, pool: Iterable<number>): number;
}

/** The first `count` recall questions, embedded, with their exact top 10 over `matrix`. */
export async function recallCheck(embedder: TextEmbedder, matrix: Float32Array, count: number): Promise<RecallCheck> {
  const questions = recallQuestions(count);
  const queries = await embedder.embed(questions);
  const queryMatrix = new Float32Array(count * DIMENSION);
  queries.forEach((query, i) => queryMatrix.set(query, i * DIMENSION));
  const exact = usearch.exactSearch(matrix, queryMatrix, DIMENSION, 10, usearch.MetricKind.Cos, 0) as { keys: BigUint64Array };
  const exactKeys = queries.map((_, q) => Array.from(exact.keys.subarray(q * 10, q * 10 + 10), Number));
  const dot = (row: number, query: Float32Array) => {
    let sum = 0;
    for (let j = 0, base = row * DIMENSION; j < DIMENSION; j += 1) sum += matrix[base + j]! * query[j]!;
    return sum;
  };
  const recall = (q: number, pool: Iterable<number>) => {
    const query = queries[q]!;
    const top = [...new Set(pool)].map((row) => ({ row, score: dot(row, query) }))
      .sort((a, b) => b.score - a.score).slice(0, 10);
    const tenth = dot(exactKeys[q]![9]!, query) - 1e-6;
    return top.filter((item) => exactKeys[q]!.includes(item.row) || item.score >= tenth).length / 10;
  };
  return { questions, queries, exactKeys, dot, recall };
}

export const mean = (values: number[]) => values.reduce((a, b) => a + b, 0) / values.length;
