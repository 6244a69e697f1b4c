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
 * Inserts always run on two threads at least (every core but one, up to 4, on bigger machines), for the graph's
 * quality rather than speed. Built from the bench corpus's first 300,000 messages in key order (clustered: a
 * conversation's turns are near each other; `npx tsx scripts/graph-build-probe.ts --messages 300000 --threads N
 * --slice 32`, M 64, i8), recall@10 after the exact re-rank was 0.824 and 0.865 with one thread and 0.87-1.00
 * with two (mean 0.94 over thirteen builds: concurrent inserts make a different graph each time), at the same CPU
 * a vector. The loss is a few questions whose neighbours the search never reaches (6-12 of 100), which a
 * wider search (1,024) does not recover. Shuffling a slice, bigger expansion_add (96, 128) and f16 moved
 * recall within that spread. At 1M on 2 cores the pipeline drained at 818 and 866 msgs/s with two threads, 648
 * with one (bench/RESULTS.md, 2026-11-25).
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
