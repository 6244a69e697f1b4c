import type { ScoredKey } from '../../domain/search.js';
import type { EmbeddingQueue } from '../../ports/embedding-queue.js';
import type { Logger } from '../../ports/logger.js';
import type { SaveScope, VectorIndex } from '../../ports/vector-index.js';
import { VECTORS_EPOCH_KEY } from './postgres-embedding.queue.js';
import type { Pool } from './postgres-pool.js';

/** How often a replica looks for vectors other replicas stored or removed. */
export const FOLLOW_INTERVAL_MS = 1000;
/**
 * Numbers read again below the highest seen: a transaction may commit after one that drew a later number (each
 * replica stores at most two batches of 64 at once, so this covers dozens of replicas).
 */
const LATE_COMMIT_WINDOW = 4096;
/** Keys read a step beyond the window, and vectors fetched a batch. */
const PAGE = 2048;
const ADD_BATCH = 512;
/**
 * Looks in a row that found the highest number unchanged before the window is no longer read again: a statement
 * that drew a number has committed or failed well within this many seconds. Until something new comes, a look is
 * then one probe of each index (reading the window took 3.4 ms at 100K vectors).
 */
const QUIET_LOOKS = 5;

/** Where a replica stands in one numbered feed (vectors stored, vectors removed), and whether to read it now. */
class FeedCursor {
  /** The highest number seen. */
  highest = 0;
  /** Looks in a row since the feed's highest number last moved. */
  private quiet = 0;

  /** Whether to read the feed, now that its highest number is `latest`. */
  due(latest: number | null): boolean {
    if ((latest ?? 0) > this.highest) {
      this.quiet = 0;
      return true;
    }
    return ++this.quiet <= QUIET_LOOKS;
  }

  /** Read from here: the late-commit window below the highest seen. */
  from(): number {
    return this.highest - LATE_COMMIT_WINDOW;
  }

  /** Read up to `last`; true when that moved the cursor on. */
  advance(last: number): boolean {
    const moved = last > this.highest;
    this.highest = Math.max(this.highest, last);
    return moved;
  }

  restart(at: number): void {
    this.highest = at;
    this.quiet = 0;
  }
}

/**
 * Keeps a replica's own graph (storage.vector_index: local) in line with what other replicas do: every second it
 * reads the vectors removed (vector_removals: their messages went) and drops them, then the keys stored (by
 * message_vectors.added) and adds those its graph lacks. When every vector went at once (a rebuild, counted in
 * service_state) it empties the graph and follows from the start. Removals are kept a day
 * (postgres-statistics-keeper.ts clears them); those made while the replica was down stay in its saved graph, where
 * searches, re-ranking candidates against the stored rows, never answer them.
 */
export class StoredVectorFollower {
  private readonly stored = new FeedCursor();
  private readonly removed = new FeedCursor();
  /** The rebuild counter the graph is of; undefined until first read (then taken as it is). */
  private epoch: string | null | undefined = undefined;
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<void> | null = null;
  private stopped = false;

  constructor(private readonly pool: Pool, private readonly queue: EmbeddingQueue, private readonly index: VectorIndex,
    private readonly log?: Logger) {}

  /**
   * Notes where both feeds stand now (the start's catch-up covers what was stored before), then follows. Should the
   * database not answer, it follows from the beginning once it does (checking every stored key once), since the
   * catch-up may have missed what was stored meanwhile.
   */
  async start(): Promise<void> {
    try {
      const state = await this.state();
      this.stored.restart(state.stored ?? 0);
      this.removed.restart(state.removed ?? 0);
      this.epoch = state.epoch;
    } catch (error) {
      this.log?.warn({ err: error }, 'following the vectors other replicas store could not start; following from the beginning');
      this.epoch = undefined;
    }
    this.schedule();
  }

  /** One look now (tests; the timer calls it every FOLLOW_INTERVAL_MS). */
  follow(): Promise<void> {
    this.running ??= this.step().catch((error: unknown) => {
      if (!this.stopped) this.log?.warn({ err: error }, 'following the vectors other replicas store failed; trying again');
    }).finally(() => { this.running = null; });
    return this.running;
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    await this.running;
  }

  private schedule(): void {
    if (this.stopped) return;
    this.timer = setTimeout(() => { void this.follow().finally(() => this.schedule()); }, FOLLOW_INTERVAL_MS);
    this.timer.unref();
  }

  private async state(): Promise<{ epoch: string | null; stored: number | null; removed: number | null }> {
    const { rows } = await this.pool.query<{ epoch: string | null; stored: number | null; removed: number | null }>(`SELECT
      (SELECT value FROM service_state WHERE key = $1) AS epoch,
      (SELECT max(added) FROM message_vectors) AS stored,
      (SELECT max(seq) FROM vector_removals) AS removed`, [VECTORS_EPOCH_KEY]);
    return rows[0]!;
  }

  private async step(): Promise<void> {
    const state = await this.state();
    if (this.epoch === undefined) this.epoch = state.epoch;
    if (state.epoch !== this.epoch) {
      // Every vector went: what the graph holds is of vectors no longer stored.
      await this.index.clear();
      this.epoch = state.epoch;
      this.stored.restart(0);
      this.removed.restart(state.removed ?? 0);
    }
    // Removals first: a removed vector never comes back (its message is gone), so dropping one twice is harmless.
    if (this.removed.due(state.removed)) await this.read('removed', this.removed);
    if (this.stored.due(state.stored)) await this.read('stored', this.stored);
  }

  /** Reads one feed from its cursor's window on, page by page, and applies it to the graph. */
  private async read(feed: 'stored' | 'removed', cursor: FeedCursor): Promise<void> {
    const sql = feed === 'stored'
      ? 'SELECT added AS n, message_seq AS key FROM message_vectors WHERE added > $1 ORDER BY added LIMIT $2'
      : 'SELECT seq AS n, message_seq AS key FROM vector_removals WHERE seq > $1 ORDER BY seq LIMIT $2';
    for (;;) {
      if (this.stopped) return;
      const { rows } = await this.pool.query<{ n: number; key: number }>(sql, [cursor.from(), LATE_COMMIT_WINDOW + PAGE]);
      if (rows.length === 0) return;
      const keys = rows.map((row) => row.key);
      if (feed === 'removed') await this.index.remove(keys);
      else await this.addMissing(keys);
      if (!cursor.advance(rows[rows.length - 1]!.n) || rows.length < LATE_COMMIT_WINDOW + PAGE) return;
    }
  }

  private async addMissing(keys: readonly number[]): Promise<void> {
    const missing = await this.index.missing(keys);
    for (let i = 0; i < missing.length && !this.stopped; i += ADD_BATCH) {
      const found = await this.queue.vectorsByKey(missing.slice(i, i + ADD_BATCH));
      await this.index.add(found.map((item) => item.key), found.map((item) => item.vector));
    }
  }
}

/** A replica's own graph that follows other replicas' vectors while it is open. */
export class FollowedVectorIndex implements VectorIndex {
  constructor(private readonly index: VectorIndex, private readonly follower: StoredVectorFollower) {}

  get dimension(): number { return this.index.dimension; }
  size(): number { return this.index.size(); }
  waiting(): number { return this.index.waiting(); }
  add(keys: readonly number[], vectors: readonly Float32Array[]): Promise<void> { return this.index.add(keys, vectors); }
  flush(): Promise<void> { return this.index.flush(); }
  remove(keys: readonly number[]): Promise<void> { return this.index.remove(keys); }
  search(query: Float32Array, k: number): Promise<ScoredKey[]> { return this.index.search(query, k); }
  missing(keys: readonly number[]): Promise<number[]> { return this.index.missing(keys); }
  save(scope?: SaveScope): Promise<void> { return this.index.save(scope); }
  clear(): Promise<void> { return this.index.clear(); }

  async close(): Promise<void> {
    await this.follower.stop();
    await this.index.close();
  }
}
