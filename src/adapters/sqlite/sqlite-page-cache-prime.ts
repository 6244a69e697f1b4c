import type { Database } from 'better-sqlite3';

/** Stored vectors read a step: about 5 ms at a million messages, what a re-rank arriving meanwhile may wait. */
const ROWS_A_STEP = 256;
/** A store smaller than the cache is primed again at most this often, while it grows, until the cache is full. */
const PRIME_AGAIN_AFTER_MS = 30_000;

/**
 * Fills a new connection's page cache with the newest stored vectors, a step at a time with the event loop free
 * between steps, until it has read as many rows as the cache has pages (or the table ends, or `stopped()`).
 *
 * Why: while a connection's cache grows, each page read into it takes a buffer SQLite has not used before (fresh
 * memory the process touches for the first time); once full, it reuses the least recent one. Reading 116 random
 * stored vectors at a million messages (all in the OS page cache) took p50 4.0 ms on a connection whose 64 MB cache
 * was still filling and 0.47 ms, for vectors never read before, once it was full (bench/NOTES.md, session 29). Filled at the start, the first questions after a start cost what later
 * ones do (a store growing from empty: see PageCachePrimer). Returns the rows read.
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

/**
 * Primes one connection (primePageCache) when it opens and, while the store held fewer stored vectors than its cache
 * has pages (a store filling up), again on a later read, at most every PRIME_AGAIN_AFTER_MS, until the cache is full.
 */
export class PageCachePrimer {
  private priming = false;
  private full = false;
  private lastStarted = Number.NEGATIVE_INFINITY;

  constructor(private readonly db: Database, private readonly stopped: () => boolean, private readonly now = () => Date.now()) {}

  /**
   * Starts priming in the background if it is due; settles with the rows it read (null: not due). A failure costs
   * only the speed it was for (no more tries).
   */
  primeIfDue(): Promise<number> | null {
    if (this.full || this.priming || this.now() - this.lastStarted < PRIME_AGAIN_AFTER_MS || this.stopped()) return null;
    const budget = cachePages(this.db);
    this.priming = true;
    this.lastStarted = this.now();
    return primePageCache(this.db, this.stopped).then(
      (read) => { this.full = read >= budget; return read; },
      () => { this.full = true; return 0; },
    ).finally(() => { this.priming = false; });
  }
}
