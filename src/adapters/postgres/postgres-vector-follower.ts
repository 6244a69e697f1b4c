import type { ScoredKey } from '../../domain/search.js';
import type { EmbeddingQueue } from '../../ports/embedding-queue.js';
import type { Logger } from '../../ports/logger.js';
import type { SaveScope, VectorIndex } from '../../ports/vector-index.js';
import { VECTORS_EPOCH_KEY } from './postgres-embedding.queue.js';
import type { Pool } from './postgres-pool.js';

/** How often a replica looks for vectors other replicas stored. */
export const FOLLOW_INTERVAL_MS = 1000;
/**
 * Numbers read again below the highest seen: a storing transaction may commit after one that drew a later number
 * (each replica stores at most two batches of 64 at once, so this covers dozens of replicas).
 */
const LATE_COMMIT_WINDOW = 4096;
/** Keys read a step beyond the window, and vectors fetched a batch. */
const PAGE = 2048;
const ADD_BATCH = 512;
/**
 * Looks in a row that found the highest number unchanged before the window is no longer read again: a storing
 * statement that drew a number has committed or failed well within this many seconds. Until something new is
 * stored, a look is then one probe of the index (reading the window took 3.4 ms at 100K vectors).
 */
const QUIET_LOOKS = 5;

/**
 * Keeps a replica's own graph (storage.vector_index: local) in line with vectors other replicas store: every
 * second it reads the keys stored since it last looked (by message_vectors.added) and adds those its graph lacks.
 * When every vector went at once (a rebuild, counted in service_state) it empties the graph and follows from the
 * start. Vectors another replica deleted stay in the graph until the next start; searches re-rank candidates
 * against the stored rows, so they are never answered.
 */
export class StoredVectorFollower {
  private highest = 0;
  /** Looks in a row since the highest number last moved. */
  private quiet = 0;
  private epoch: string | null = null;
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<void> | null = null;
  private stopped = false;

  constructor(private readonly pool: Pool, private readonly queue: EmbeddingQueue, private readonly index: VectorIndex,
    private readonly log?: Logger) {}

  /** Notes where the stored vectors stand now (the start's catch-up covers what came before), then follows. */
  async start(): Promise<void> {
    const { rows } = await this.pool.query<{ highest: number | null; epoch: string | null }>(`SELECT
      (SELECT max(added) FROM message_vectors) AS highest,
      (SELECT value FROM service_state WHERE key = $1) AS epoch`, [VECTORS_EPOCH_KEY]);
    this.highest = rows[0]?.highest ?? 0;
    this.epoch = rows[0]?.epoch ?? null;
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

  private async step(): Promise<void> {
    const { rows: state } = await this.pool.query<{ epoch: string | null; highest: number | null }>(`SELECT
      (SELECT value FROM service_state WHERE key = $1) AS epoch, (SELECT max(added) FROM message_vectors) AS highest`,
    [VECTORS_EPOCH_KEY]);
    const epoch = state[0]?.epoch ?? null;
    if (epoch !== this.epoch) {
      // Every vector went: what the graph holds is of vectors no longer stored.
      await this.index.clear();
      this.epoch = epoch;
      this.highest = 0;
      this.quiet = 0;
    }
    if ((state[0]?.highest ?? 0) > this.highest) this.quiet = 0;
    else if (++this.quiet > QUIET_LOOKS) return;
    for (;;) {
      if (this.stopped) return;
      const { rows } = await this.pool.query<{ added: number; key: number }>(`SELECT added, message_seq AS key
        FROM message_vectors WHERE added > $1 ORDER BY added LIMIT $2`, [this.highest - LATE_COMMIT_WINDOW, LATE_COMMIT_WINDOW + PAGE]);
      if (rows.length === 0) return;
      const missing = await this.index.missing(rows.map((row) => row.key));
      for (let i = 0; i < missing.length && !this.stopped; i += ADD_BATCH) {
        const found = await this.queue.vectorsByKey(missing.slice(i, i + ADD_BATCH));
        await this.index.add(found.map((item) => item.key), found.map((item) => item.vector));
      }
      const last = rows[rows.length - 1]!.added;
      const advanced = last > this.highest;
      this.highest = Math.max(this.highest, last);
      if (rows.length < LATE_COMMIT_WINDOW + PAGE || !advanced) return;
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
