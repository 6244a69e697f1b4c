/**
 * The second search thread: holds the partitions of colour 1 of a split index (PartitionLayout), so that a
 * question's graph searches run on two cores. The index thread (usearch-index.worker.ts) plans every search, sends
 * this thread its part and the vectors for its partitions, and keeps those vectors searchable until this thread
 * says they are in. Adds go in a partition at a time, one add after another; searches, lookups and saves are
 * answered between the steps.
 */
import { parentPort } from 'node:worker_threads';
import { PartitionedVectorIndex } from './partitioned-vector-index.js';
import { RequestOrder } from './request-order.js';
import type { PartitionThreadReply, PartitionThreadRequest } from './vector-index.protocol.js';

let index: PartitionedVectorIndex | null = null;
/** Set by 'close': no step starts after it, so terminating never lands inside usearch. */
let closing = false;
/** Opening, adds and removals one after another; searches, lookups and saves between them. */
const order = new RequestOrder();
const port = parentPort!;

port.on('message', (message: PartitionThreadRequest & { id: number }) => {
  const run = async () => {
    try {
      const value = await handle(message);
      reply({ id: message.id, ok: true, sizes: index?.ownSizes() ?? [], value });
    } catch (error) {
      reply({ id: message.id, ok: false, sizes: index?.ownSizes() ?? [], error: (error as Error).message });
    }
  };
  const kind = message.op === 'add' || message.op === 'remove' ? 'change' : message.op === 'open' || message.op === 'close' ? message.op : 'read';
  order.schedule(kind, run);
});

function reply(message: PartitionThreadReply): void {
  port.postMessage(message);
}

const nextTurn = () => new Promise((resolve) => setImmediate(resolve));

async function handle(message: PartitionThreadRequest): Promise<unknown> {
  if (message.op === 'open') {
    index = PartitionedVectorIndex.openThreadPart(message.dir, message.model, message.dimension, message.parameters, message.layout, 1);
    return null;
  }
  if (message.op === 'close') {
    closing = true;
    return null;
  }
  if (!index) throw new Error('the partition thread is not open');
  switch (message.op) {
    case 'add':
      index.remove(message.sliceKeys);
      for (const _ of index.addInSteps(message.keys, message.matrix)) {
        await nextTurn();
        if (closing) break;
      }
      return null;
    case 'remove':
      index.remove(message.keys);
      return null;
    case 'missing':
      return index.missing(message.keys);
    case 'search': {
      const found = index.searchOwn(message.graphQuery, message.asks);
      return { keys: found.map((item) => item.key), scores: found.map((item) => item.score) };
    }
    case 'save':
      for (const _ of index.saveInSteps(message.scope)) {
        await nextTurn();
        if (closing) break;
      }
      return null;
  }
}
