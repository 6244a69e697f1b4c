/**
 * The index thread: owns the usearch HNSW graph so that loading, inserting and
 * saving never block the request event loop. Searches are answered at once;
 * changes run one at a time, inserting in small slices with a yield between
 * them so a search waits for at most one slice.
 */
import { parentPort } from 'node:worker_threads';
import type { IndexReply, IndexRequest, SearchReply } from './vector-index.protocol.js';
import { UsearchVectorIndex } from './usearch-vector.index.js';

/** Vectors each insert thread takes a slice: a search waits for at most one slice. */
const VECTORS_A_THREAD = 32;

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
      const { keys, matrix, threads } = message;
      const dimension = index.dimension;
      const slice = VECTORS_A_THREAD * threads;
      for (let start = 0; start < keys.length; start += slice) {
        const end = Math.min(keys.length, start + slice);
        index.add(keys.slice(start, end), matrix.subarray(start * dimension, end * dimension), threads);
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
