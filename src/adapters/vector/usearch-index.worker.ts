/**
 * The index thread: owns the usearch HNSW graph so that loading, inserting and
 * saving never block the request event loop. Searches are answered at once;
 * changes run one at a time, inserting in small slices with a yield between
 * them so a search waits for at most one slice.
 */
import { availableParallelism } from 'node:os';
import { parentPort } from 'node:worker_threads';
import type { IndexReply, IndexRequest, SearchReply } from './vector-index.protocol.js';
import { UsearchVectorIndex } from './usearch-vector.index.js';

/**
 * Inserts always run on two threads at least (every core but one, up to 4, on bigger machines). Not for speed:
 * on clustered text a graph built one insert after another is much worse. Built from the bench corpus's first
 * 300,000 messages in key order (`npx tsx scripts/graph-build-probe.ts --messages 300000`, M 64, i8), recall@10
 * after the exact re-rank was 0.824-0.865 with one thread (no better with 256 candidates than with 116: whole
 * regions unreachable), 0.976 with two threads in slices of 32 (0.997 in slices of 512), at the same CPU a
 * vector. Shuffling a slice helped one thread (0.966) but not two, at 20-40% more CPU. On 2 cores a second
 * thread gained no throughput beside a busy process (bench/RESULTS.md, 2026-11-25).
 */
const ADD_THREADS = Math.max(2, Math.min(4, availableParallelism() - 1));
const ADD_SLICE = 32 * ADD_THREADS;

let index: UsearchVectorIndex | null = null;
let changes: Promise<unknown> = Promise.resolve();
const port = parentPort!;

port.on('message', (message: IndexRequest & { id: number }) => {
  const changing = message.op !== 'search' && message.op !== 'missing' && message.op !== 'parameters';
  const run = async () => {
    try {
      const value = await handle(message);
      reply({ id: message.id, ok: true, size: index?.size() ?? 0, value });
    } catch (error) {
      reply({ id: message.id, ok: false, size: index?.size() ?? 0, error: (error as Error).message });
    }
  };
  if (changing) changes = changes.then(run);
  else void run();
});

function reply(message: IndexReply): void {
  port.postMessage(message);
}

async function handle(message: IndexRequest): Promise<unknown> {
  if (message.op === 'open') {
    const opened = UsearchVectorIndex.open(message.dir, message.model, message.dimension, message.parameters);
    index = opened.index;
    return { loaded: opened.loaded };
  }
  if (!index) throw new Error('the vector index is not open');
  switch (message.op) {
    case 'add': {
      const { keys, matrix } = message;
      const dimension = index.dimension;
      for (let start = 0; start < keys.length; start += ADD_SLICE) {
        const end = Math.min(keys.length, start + ADD_SLICE);
        index.add(keys.slice(start, end), matrix.subarray(start * dimension, end * dimension), ADD_THREADS);
        if (end < keys.length) await new Promise((resolve) => setImmediate(resolve));
      }
      return null;
    }
    case 'remove':
      index.remove(message.keys);
      return null;
    case 'search': {
      const found = index.search(message.query, message.k);
      const result: SearchReply = { keys: found.map((item) => item.key), scores: found.map((item) => item.score) };
      return result;
    }
    case 'missing':
      return index.missing(message.keys);
    case 'parameters':
      return index.graphParameters();
    case 'save':
      index.save();
      return null;
    case 'clear':
      index.clear();
      return null;
  }
}
