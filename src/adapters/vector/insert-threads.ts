import { availableParallelism } from 'node:os';
import { performance, type EventLoopUtilization } from 'node:perf_hooks';

/** usearch's threaded add scales no further on this workload's batches of 64. */
const MAX_INSERT_THREADS = 4;
/** Above this share of its time spent working, the event loop is serving requests and keeps a core. */
const BUSY_EVENT_LOOP = 0.5;

/**
 * How many threads one HNSW insert uses. An insert is the pipeline's largest cost at a million vectors (about
 * 1 ms of CPU a vector), so a backlog drains on every core while the event loop is mostly idle; while it is
 * busy (a bulk import, ingest) it keeps a core. Measured on 2 cores at 1,000,000 messages: two insert threads
 * drained a backlog at 900-1,000 vectors/s where one gave 600, yet beside a busy process they gained nothing
 * (1,390 against 1,398 vectors/s, 10% more CPU a vector) and a bulk import stored 6,558 rather than 11,708
 * messages a second (bench/RESULTS.md).
 */
export function insertThreads(cores: number, eventLoopBusy: number): number {
  const usable = eventLoopBusy < BUSY_EVENT_LOOP ? cores : cores - 1;
  return Math.max(1, Math.min(MAX_INSERT_THREADS, usable));
}

/** The event loop's busy share since the previous call (the thread that calls it: the request thread). */
export function eventLoopBusySince(): () => number {
  let last: EventLoopUtilization = performance.eventLoopUtilization();
  return () => {
    const now = performance.eventLoopUtilization();
    const busy = performance.eventLoopUtilization(now, last).utilization;
    last = now;
    return busy;
  };
}

export const machineCores = (): number => availableParallelism();
