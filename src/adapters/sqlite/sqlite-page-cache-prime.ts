import type { Database } from 'better-sqlite3';

/** Stored vectors read a step: about 5 ms at a million messages, what a re-rank arriving meanwhile may wait. */
const ROWS_A_STEP = 256;

/**
 * Fills a new connection's page cache with the newest stored vectors, a step at a time with the event loop free
 * between steps, until it has read as many rows as the cache has pages (or the table ends, or `stopped()`).
 *
 * Why: SQLite allocates a page's buffer the first time its cache grows to hold it, and on this VM that first touch
 * of fresh memory cost more than the read. A re-rank of 116 stored vectors took p50 4.0 ms on a connection whose
 * 64 MB cache was still filling, and 0.47 ms for vectors never read before once it was full (both from the OS page
 * cache; docs/performance.md, session 29). Filled at the start, the first questions after a start cost what later
 * ones do. Returns the rows read.
 */
export async function primePageCache(db: Database, stopped: () => boolean): Promise<number> {
  const budget = cachePages(db);
  const step = db.prepare(`SELECT message_seq, length(vector) FROM message_vectors
    WHERE message_seq < ? ORDER BY message_seq DESC LIMIT ?`).raw();
  let below = Number.MAX_SAFE_INTEGER;
  let read = 0;
  while (read < budget && !stopped()) {
    const rows = step.all(below, Math.min(ROWS_A_STEP, budget - read)) as Array<[number, number]>;
    if (rows.length === 0) break;
    read += rows.length;
    below = rows.at(-1)![0];
    await new Promise((resolve) => setImmediate(resolve));
  }
  return read;
}

/** Pages the connection's cache holds: `cache_size` is pages when positive, KiB when negative. */
function cachePages(db: Database): number {
  const size = db.pragma('cache_size', { simple: true }) as number;
  const pageSize = db.pragma('page_size', { simple: true }) as number;
  return size >= 0 ? size : Math.floor((-size * 1024) / pageSize);
}
