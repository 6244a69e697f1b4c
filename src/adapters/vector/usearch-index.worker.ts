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
 * Inserts use every core but one (up to 4), which is left to the event loop and the bridge: an HNSW insert is
 * the pipeline's largest cost at a million vectors (about 1 ms of CPU each). On 2 cores a second insert thread
 * gained nothing beside a busy process (1,390 against 1,398 vectors/s at 200,000, 10% more CPU a vector). End to
 * end at 1M the runs disagree within this machine's noise (bench/RESULTS.md, 2026-11-25): two threads drained
 * the pipeline at 818 msgs/s against 648, but imported at 6,558 against 7,779 msgs/s.
 */
const ADD_THREADS = Math.max(1, Math.min(4, availableParallelism() - 1));
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
