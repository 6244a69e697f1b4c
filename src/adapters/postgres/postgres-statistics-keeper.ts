import type { Logger } from '../../ports/logger.js';
import type { Pool } from './postgres-pool.js';

/** How often a replica looks at the tables' change counters. */
const CHECK_INTERVAL_MS = 30_000;
/** A table is analyzed again once this share of its rows (and at least MIN_CHANGES) changed since the last analyze. */
const CHANGED_SHARE = 0.2;
const MIN_CHANGES = 1_000;
/** The queue table is vacuumed once it holds this many dead rows (every completion leaves one) and more than live ones. */
const DEAD_JOBS = 20_000;
const TABLES = ['conversations', 'messages', 'message_vectors', 'embedding_jobs'] as const;
/** Far below deadlock_timeout (1 s by default): maintenance yields to whatever holds the table. */
const LOCK_TIMEOUT_MS = 100;
const LOCK_NOT_AVAILABLE = '55P03';
/** Any fixed number: one replica analyzes at a time. */
const ANALYZE_LOCK = 7_436_002;
/** Vector removals are kept this long for the replicas to follow, and cleared about once an hour. */
const REMOVALS_KEPT = '1 day';
const CLEAR_REMOVALS_EVERY_MS = 60 * 60_000;

/**
 * Keeps the planner's statistics fresh where the server does not (autovacuum off, or behind a bulk load): the
 * search statements' plans depend on them (a folder of 1,000 conversations estimated at 14 made full text 1.6 s
 * rather than 30 ms; bench/NOTES.md). With autovacuum on and keeping up, it never acts. It also clears the
 * vector removals the replicas have had a day to follow.
 */
export class PostgresStatisticsKeeper {
  private timer: NodeJS.Timeout | null = null;
  private running: Promise<void> | null = null;
  private removalsClearedAt = 0;

  constructor(private readonly pool: Pool, private readonly log?: Logger) {}

  start(): void {
    this.timer ??= setInterval(() => { void this.check(); }, CHECK_INTERVAL_MS);
    this.timer.unref();
  }

  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await this.running;
  }

  /** Analyzes the tables that changed enough since their last analyze, vacuums a queue full of dead rows, clears old removals. */
  check(): Promise<void> {
    this.running ??= this.bringUpToDate().catch((error: unknown) => {
      this.log?.warn({ err: error }, 'table statistics could not be refreshed; plans may suffer until they are');
    }).finally(() => { this.running = null; });
    return this.running;
  }

  private async bringUpToDate(): Promise<void> {
    const { rows } = await this.pool.query<{ table: string; live: number; dead: number; changed: number }>(`
      SELECT relname AS table, n_live_tup AS live, n_dead_tup AS dead, n_mod_since_analyze AS changed
      FROM pg_stat_user_tables WHERE schemaname = current_schema() AND relname = ANY($1::text[])`, [TABLES]);
    const stale = rows.filter((row) => row.changed >= Math.max(MIN_CHANGES, CHANGED_SHARE * row.live)).map((row) => row.table);
    if (stale.length > 0) {
      const client = await this.pool.connect();
      try {
        await client.query('BEGIN');
        const { rows: lock } = await client.query<{ held: boolean }>('SELECT pg_try_advisory_xact_lock($1) AS held', [ANALYZE_LOCK]);
        // An index built concurrently waits for every transaction that started before it, so an ANALYZE waiting
        // for that build's lock would deadlock with it: give up at once and try again at the next check.
        if (lock[0]!.held) await client.query(`SET LOCAL lock_timeout = '${LOCK_TIMEOUT_MS}ms'; ANALYZE ${stale.join(', ')}`);
        await client.query('COMMIT');
        if (lock[0]!.held) this.log?.info({ tables: stale }, 'table statistics refreshed');
      } catch (error) {
        await client.query('ROLLBACK').catch(() => {});
        if ((error as { code?: string }).code === LOCK_NOT_AVAILABLE) return;
        throw error;
      } finally {
        client.release();
      }
    }
    const jobs = rows.find((row) => row.table === 'embedding_jobs');
    if (jobs && jobs.dead >= DEAD_JOBS && jobs.dead > jobs.live) {
      // SKIP_LOCKED: a queue another session holds (a vacuum of its own) is left to it.
      await this.pool.query('VACUUM (SKIP_LOCKED) embedding_jobs');
    }
    if (Date.now() - this.removalsClearedAt >= CLEAR_REMOVALS_EVERY_MS) {
      this.removalsClearedAt = Date.now();
      // Noted for replicas keeping their own graph (postgres-vector-follower.ts), which follow them within seconds.
      await this.pool.query(`DELETE FROM vector_removals WHERE removed_at < now() - interval '${REMOVALS_KEPT}'`);
    }
  }
}
