/**
 * The index thread: owns the usearch HNSW graph so that loading, inserting and
 * saving never block the request event loop. Added vectors wait in FreshVectors,
 * searched exactly, while a background loop inserts them into the graph in slices,
 * yielding between slices: a search waits for at most one slice.
 */
import { availableParallelism } from 'node:os';
import { parentPort } from 'node:worker_threads';
import { INSERT_FAILURE_ID, SIZES_ID, type IndexReply, type IndexRequest, type SearchReply } from './vector-index.protocol.js';
import { FreshVectors } from './fresh-vectors.js';
import { RequestOrder, type RequestKind } from './request-order.js';
import { saveIsDue, UsearchVectorIndex } from './usearch-vector.index.js';

/**
 * The graph inserts on two threads at least (every core but one, up to 4, on bigger machines), for the graph's
 * quality rather than speed: built from the bench corpus's first 300,000 messages in key order (clustered: a
 * conversation's turns are near each other; M 64, expansion_add 40, i8, slices of 32; bench/NOTES.md, "Settled by
 * probes since deleted"), recall@10 after the exact re-rank was 0.824 and 0.865 with one thread and 0.87-1.00 with
 * two (mean 0.94 over thirteen builds: concurrent inserts make a different graph each time).
 */
const ADD_THREADS = Math.max(2, Math.min(4, availableParallelism() - 1));
const ADD_SLICE = 32 * ADD_THREADS;

let index: UsearchVectorIndex | null = null;
let fresh: FreshVectors | null = null;
/** Most vectors waiting for the graph before an add's answer is held back (the caller's backpressure). */
let backlogLimit = 0;
/** Adds answered once the backlog is back under the limit, oldest first. */
const heldAdds: number[] = [];
/** Flushes answered once nothing waits for the graph. */
const heldFlushes: number[] = [];
let inserting = false;
/**
 * Settles when the slice going into the graph is in: a removal, a clear or a reopening waits for it, so no vector
 * of the slice lands in a graph after its removal, or in a graph that was replaced.
 */
let sliceInProgress: Promise<void> | null = null;
/** Set by 'close': the insert loop stops before its next slice, so terminating never lands inside usearch. */
let closing = false;
const order = new RequestOrder();
const port = parentPort!;

port.on('message', (message: IndexRequest & { id: number }) => {
  const run = async () => {
    try {
      const value = await handle(message);
      if (message.op === 'add' && fresh!.size > backlogLimit) heldAdds.push(message.id);
      else if (message.op === 'flush' && fresh!.size > 0) heldFlushes.push(message.id);
      else reply({ id: message.id, ok: true, ...sizes(), value });
    } catch (error) {
      reply({ id: message.id, ok: false, ...sizes(), error: (error as Error).message });
    }
  };
  order.schedule(kindOf(message.op), run);
});

/** A save runs beside the changes: adds arriving while it writes the graph are searchable at once. Reads wait for the last opening. */
function kindOf(op: IndexRequest['op']): RequestKind {
  if (op === 'open' || op === 'close') return op;
  return op === 'search' || op === 'missing' || op === 'parameters' || op === 'save' ? 'read' : 'change';
}

function reply(message: IndexReply): void {
  port.postMessage(message);
}

/** Vectors searchable (in the graph or waiting for it), and of those waiting. */
function sizes(): { size: number; waiting: number } {
  const waiting = fresh?.size ?? 0;
  return { size: (index?.size() ?? 0) + waiting, waiting };
}

async function handle(message: IndexRequest): Promise<unknown> {
  if (message.op === 'open' || message.op === 'remove' || message.op === 'clear') await sliceInProgress;
  if (message.op === 'open') {
    index = null;
    const opened = UsearchVectorIndex.open(message.dir, message.model, message.dimension, message.parameters);
    index = opened.index;
    fresh = new FreshVectors(message.dimension);
    backlogLimit = message.backlogLimit;
    return { loaded: opened.loaded };
  }
  if (!index || !fresh) throw new Error('the vector index is not open');
  switch (message.op) {
    case 'add':
      fresh.push(message.keys, message.matrix);
      void insertWaiting();
      return null;
    case 'flush':
      return null;
    case 'remove':
      fresh.remove(message.keys);
      index.remove(message.keys);
      return null;
    case 'search': {
      const found = merged(index.search(message.query, message.k), fresh.search(message.query, message.k), message.k);
      const result: SearchReply = { keys: found.map((item) => item.key), scores: found.map((item) => item.score) };
      return result;
    }
    case 'missing': {
      const waiting = fresh;
      return index.missing(message.keys).filter((key) => !waiting.has(key));
    }
    case 'parameters':
      return index.graphParameters();
    case 'save': {
      const changes = index.unsavedChanges();
      if (changes === 0) return null;
      if (message.scope === 'due' && !saveIsDue(changes, index.size(), index.savesSkipped())) index.skipSave();
      else index.save();
      return null;
    }
    case 'close':
      // Messages run between inserts (the loop yields before each slice), so no insert is under way now.
      closing = true;
      return null;
    case 'clear':
      fresh.clear();
      index.clear();
      answerHeld();
      return null;
  }
}

/**
 * Moves waiting vectors into the graph, one slice at a time, yielding to searches (and to the add's own
 * answer) before each slice. A slice that fails to go in (out of memory) is reported, not retried: its
 * vectors are stored, and the next start's catch-up adds what the saved graph lacks.
 */
async function insertWaiting(): Promise<void> {
  if (inserting) return;
  inserting = true;
  try {
    for (;;) {
      await new Promise((resolve) => setImmediate(resolve));
      if (closing) break;
      const graph = index;
      const waiting = fresh;
      const slice = waiting?.take(ADD_SLICE);
      if (!graph || !waiting || !slice) break;
      let sliceDone!: () => void;
      sliceInProgress = new Promise((resolve) => { sliceDone = resolve; });
      try {
        graph.add(slice.keys, slice.matrix, ADD_THREADS);
      } catch (error) {
        reply({ id: INSERT_FAILURE_ID, ok: false, ...sizes(), error: `inserting ${slice.keys.length} vectors: ${(error as Error).message}` });
      } finally {
        waiting.commit(slice);
        sliceInProgress = null;
        sliceDone();
      }
      if (closing) break;
      // The request thread knows the sizes from replies only: tell it after every slice, or a backlog that
      // drained after the last reply would look full until the next request.
      reply({ id: SIZES_ID, ok: true, ...sizes(), value: null });
      answerHeld();
    }
  } finally {
    inserting = false;
    answerHeld();
  }
}

/** Answers the held adds once the backlog is within its limit, and the held flushes once it is empty. */
function answerHeld(): void {
  const waiting = fresh?.size ?? 0;
  while (heldAdds.length > 0 && waiting <= backlogLimit) reply({ id: heldAdds.shift()!, ok: true, ...sizes(), value: null });
  while (heldFlushes.length > 0 && waiting === 0) reply({ id: heldFlushes.shift()!, ok: true, ...sizes(), value: null });
}

/** The graph's candidates and the waiting vectors' exact matches, best first; a key in both keeps its waiting (newer) vector's score. */
function merged(graph: Array<{ key: number; score: number }>, waiting: Array<{ key: number; score: number }>, k: number) {
  if (waiting.length === 0) return graph;
  const newer = new Set(waiting.map((item) => item.key));
  return [...waiting, ...graph.filter((item) => !newer.has(item.key))].sort((a, b) => b.score - a.score).slice(0, k);
}
