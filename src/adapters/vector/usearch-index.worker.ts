/**
 * The index thread: owns the usearch HNSW graph so that loading, inserting and
 * saving never block the request event loop. Added vectors wait in FreshVectors,
 * searched exactly, while a background loop inserts them into the graph in slices,
 * yielding between slices and, partitioned, between the partitions a slice goes
 * into: a search waits for at most one partition's part of a slice. With two
 * search threads (search.index_search_threads), a second thread holds half the
 * partitions once the index has split (partition-thread.worker.ts): this one
 * plans each search, hands that thread its part and the vectors for its
 * partitions, and does everything else.
 */
import { availableParallelism } from 'node:os';
import { parentPort } from 'node:worker_threads';
import { INSERT_FAILURE_ID, SIZES_ID, type IndexReply, type IndexRequest, type SearchReply } from './vector-index.protocol.js';
import { FreshVectors } from './fresh-vectors.js';
import { PartitionThread } from './partition-thread.js';
import { RequestOrder, type RequestKind } from './request-order.js';
import { bestOf, PartitionedVectorIndex, type PartitionLayout } from './partitioned-vector-index.js';
import type { HnswParameters } from './usearch-vector.index.js';

/**
 * The one graph of `partitions: 1` inserts on two threads at least (every core but one, up to 4, on bigger machines),
 * for the graph's quality rather than speed; the seeding graph takes one (SEEDING_ADD_THREADS in
 * partitioned-vector-index.ts), and so do partition graphs (PARTITION_ADD_THREADS there). Built
 * from the bench corpus's first 300,000 messages in key order (clustered: a conversation's turns are near each
 * other; M 64, i8, slices of 32; bench/NOTES.md, "Settled by probes since deleted"), recall@10
 * after the exact re-rank was 0.824 and 0.865 with one thread and 0.87-1.00 with two (mean 0.94 over thirteen
 * builds: concurrent inserts make a different graph each time), at the same CPU a vector. The loss is a few
 * questions whose neighbours the search never reaches (6-12 of 100), which a wider search (1,024) does not
 * recover. Shuffling a slice, bigger expansion_add (96, 128) and f16 moved recall within that spread. At 1M on
 * 2 cores the pipeline drained at 818 and 866 msgs/s with two threads, 648 with one (bench/RESULTS.md, 2026-11-25).
 */
const ADD_THREADS = Math.max(2, Math.min(4, availableParallelism() - 1));
const ADD_SLICE = 32 * ADD_THREADS;
/**
 * Partitioned, a slice spreads over up to `partitions` graphs, one usearch add (with its own threads) each, so a
 * partition's share of a small slice costs more in thread start-ups and cold memory than in inserts. Building the
 * bench corpus's first 1,000,000 vectors in slices of 512, 2,048 and 8,192 (bench/NOTES.md, session 19): 8,295,
 * 13,009 and 14,550 vectors/s, 217, 141 and 123 µs of CPU a vector, recall@10 0.962-0.964. Only a backlog fills a slice (FreshVectors.take gathers the pipeline's batches of 64). A slice goes
 * in a partition at a time, answering searches between: 2,048 over 32 partitions is about 64 vectors a step on
 * average, a few milliseconds that a search may wait (the largest partition, a seventh of a million-vector index,
 * takes about 300).
 */
const PARTITIONED_ADD_SLICE = 2048;

let index: PartitionedVectorIndex | null = null;
/** The second search thread, holding half the partitions once the index has split (search.index_search_threads 2). */
let partitionThread: PartitionThread | null = null;
/** What the index was opened with: the partition thread opens its partitions with the same. */
let openedWith: { dir: string; model: string; dimension: number; parameters: HnswParameters } | null = null;
let fresh: FreshVectors | null = null;
/** Most vectors waiting for the graph before an add's answer is held back (the caller's backpressure). */
let backlogLimit = 0;
/** Adds answered once the backlog is back under the limit, oldest first. */
const heldAdds: number[] = [];
/** Flushes answered once nothing waits for the graph. */
const heldFlushes: number[] = [];
let inserting = false;
/**
 * Settles when the slice going into the graph is in. A slice goes in a partition at a time, with messages
 * answered between: a removal, a clear or a reopening waits for it, so no vector of the slice lands in a graph
 * after its removal, or in a graph that was replaced.
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

/**
 * A save runs beside the changes: adds arriving while it writes the graphs are searchable at once. Reads wait for
 * the last opening, which waits for the partition thread's graphs.
 */
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
    await stopPartitionThread();
    index = null;
    openedWith = { dir: message.dir, model: message.model, dimension: message.dimension, parameters: message.parameters };
    // The partition thread loads its saved graphs while this one loads the others.
    const layout = PartitionedVectorIndex.savedLayout(message.dir, message.model, message.dimension, message.parameters);
    if (layout?.threadOf.includes(1)) startPartitionThread(layout);
    const openedIndex = layout
      ? { index: PartitionedVectorIndex.openThreadPart(message.dir, message.model, message.dimension, message.parameters, layout, 0), loaded: true }
      : PartitionedVectorIndex.open(message.dir, message.model, message.dimension, message.parameters);
    if (partitionThread) {
      await partitionThread.opened;
      openedIndex.index.useOtherSizes(partitionThread.sizes);
    }
    index = openedIndex.index;
    fresh = new FreshVectors(message.dimension);
    backlogLimit = message.backlogLimit;
    return { loaded: openedIndex.loaded };
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
      await partitionThread?.remove(message.keys);
      return null;
    case 'search': {
      const found = merged(await searchGraphs(index, message.query, message.k, message.among), fresh.search(message.query, message.k), message.k);
      const result: SearchReply = { keys: found.map((item) => item.key), scores: found.map((item) => item.score) };
      return result;
    }
    case 'missing': {
      const waiting = fresh;
      const notHere = index.missing(message.keys);
      const inNoGraph = partitionThread ? await partitionThread.missing(notHere) : notHere;
      // A key the route sample lacks is added again like a missing one (its partition may be the other thread's).
      const counted = new Set(inNoGraph);
      const unsampled = index.unsampled(message.keys).filter((key) => !counted.has(key));
      return [...inNoGraph, ...unsampled].filter((key) => !waiting.has(key));
    }
    case 'parameters':
      return index.graphParameters();
    case 'save': {
      // A partition at a time, with searches (and inserts) answered between them; then the partition thread's, the same
      // way. Not both at once: a search waits for both threads, and two graphs written together each took longer.
      const saving = index;
      const thread = partitionThread;
      for (const _ of saving.saveInSteps(message.scope)) {
        await new Promise((resolve) => setImmediate(resolve));
        // Reopened meanwhile (another model): the old index's remaining graphs are not written over the new one's.
        // Closing: the thread is about to be terminated, which must not land inside a write.
        if (index !== saving || closing) break;
      }
      // Stopped meanwhile (a clear, a close): its save ends with it, and that is no failure of this one.
      if (thread && thread === partitionThread && !closing) {
        await thread.save(message.scope).catch((error: unknown) => { if (partitionThread === thread) throw error; });
      }
      return null;
    }
    case 'close':
      // Messages run between inserts (the loop yields before each partition's), so no insert is under way now.
      closing = true;
      await stopPartitionThread();
      return null;
    case 'clear':
      // Stopped first: it must not be writing a partition's graph into the directory the clear deletes.
      await stopPartitionThread();
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
      const slice = waiting?.take(graph?.layout() === 'partitioned' ? PARTITIONED_ADD_SLICE : ADD_SLICE);
      if (!graph || !waiting || !slice) break;
      let sliceDone!: () => void;
      sliceInProgress = new Promise((resolve) => { sliceDone = resolve; });
      try {
        // The rows of the partition thread's partitions go there at once and in parallel; the slice stays
        // searchable here (waiting) until both threads have theirs in.
        const there: Array<Promise<void>> = [];
        const handOver = (sliceKeys: readonly number[], keys: number[], matrix: Float32Array) => {
          if (keys.length === 0 && !partitionThread) return;
          if (!partitionThread) throw new Error('no partition thread for the vectors of its partitions');
          there.push(partitionThread.add(sliceKeys, keys, matrix));
        };
        // A partition graph a step, with searches and adds answered between them. Closing stops it between two
        // steps; the slice's vectors are stored, and the next start's catch-up adds those the graph lacks.
        for (const _ of graph.addInSteps(slice.keys, slice.matrix, ADD_THREADS, handOver)) {
          await new Promise((resolve) => setImmediate(resolve));
          if (closing) break;
        }
        await Promise.all(there);
        // This slice split the first graph: the partition thread takes its partitions before the next slice.
        const layout = graph.partitionLayout();
        if (!partitionThread && !closing && graph === index && layout?.threadOf.includes(1)) {
          startPartitionThread(layout);
          graph.useOtherSizes(partitionThread!.sizes);
        }
      } catch (error) {
        reply({ id: INSERT_FAILURE_ID, ok: false, ...sizes(), error: `inserting ${slice.keys.length} vectors: ${(error as Error).message}` });
      } finally {
        waiting.commit(slice);
        sliceInProgress = null;
        sliceDone();
      }
      if (closing) break;
      // The first graph split into partitions: its vectors wait here, searched exactly, until they are in them.
      const moved = graph.takeMoved();
      if (moved) waiting.push(moved.keys, moved.matrix);
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

/**
 * The graphs' candidates for a search: the index thread's partitions searched here while the partition thread
 * searches its own (posted first), then the best of both.
 */
async function searchGraphs(graph: PartitionedVectorIndex, query: Float32Array, k: number, among?: Float32Array) {
  if (!partitionThread || graph.layout() !== 'partitioned') return graph.search(query, k, among);
  const plan = graph.searchPlan(query, k, among);
  const layout = graph.partitionLayout()!;
  const theirs = plan.asks.filter((ask) => layout.threadOf[ask.partition] === 1);
  const there = theirs.length > 0 ? partitionThread.search(plan.graphQuery, theirs) : Promise.resolve([]);
  const here = graph.searchOwn(plan.graphQuery, plan.asks);
  return bestOf([...here, ...(await there)], plan.depth);
}

/** Starts the partition thread on `layout`'s partitions of colour 1, for the index being opened. */
function startPartitionThread(layout: PartitionLayout): void {
  const { dir, model, dimension, parameters } = openedWith!;
  partitionThread = PartitionThread.start(dir, model, dimension, parameters, layout,
    (error) => {
      // Its partitions are gone: the index thread fails with it, as it would fail itself (the owner sees the thread end).
      setImmediate(() => { throw new Error(`partition search thread failed: ${error.message}`); });
    });
}

async function stopPartitionThread(): Promise<void> {
  const stopping = partitionThread;
  partitionThread = null;
  await stopping?.stop();
}
