import type { Logger } from '../../ports/logger.js';
import type { Pool, PoolClient } from './postgres-pool.js';

/** pgvector indexes `vector` up to 2,000 dimensions; larger ones are indexed as `halfvec` (up to 4,000). */
export const MAX_VECTOR_INDEX_DIMENSION = 2000;

/**
 * ivfflat: lists learned from the stored vectors, a share of them probed per search (the default: on the builtin
 * engine's vectors and natural-language questions it finds the exact ten far more often than HNSW at the same cost).
 * hnsw: pgvector's graph, built as vectors arrive.
 */
export type VectorIndexKind = 'ivfflat' | 'hnsw';

export interface VectorIndexOptions {
  kind: VectorIndexKind;
  /** ivfflat: the share of the lists a search probes (at least one list). */
  probeShare: number;
  /** ivfflat: below this many vectors there is no index: a search scans them all, exactly. */
  minRows: number;
  /** ivfflat: the lists are learned again once the vectors have grown this many times since the last build. */
  growth: number;
}

export const DEFAULT_VECTOR_INDEX: VectorIndexOptions = { kind: 'ivfflat', probeShare: 0.2, minRows: 10_000, growth: 2 };

/** The ivfflat index in service: its lists and how many vectors it was learned from. */
export interface IvfflatState { lists: number; rows: number }

const STATE_KEY = 'vector_index';
const BUILD_LEASE_KEY = 'vector_index_build';
const IVFFLAT = 'message_vectors_ivfflat';
const IVFFLAT_NEXT = 'message_vectors_ivfflat_next';
const HNSW = 'message_vectors_hnsw';
/** A build's claim lapses unless renewed: a replica that died mid-build leaves it to another. */
const BUILD_LEASE_MS = 10 * 60_000;
/** How long a replica trusts the lists it last read (another replica may have rebuilt since). */
const STATE_TTL_MS = 5_000;

/** Lists for n vectors: the square root, as pgvector suggests past a million and as measured best here below it. */
export const listsFor = (rows: number) => Math.max(1, Math.round(Math.sqrt(rows)));

/**
 * The vector column's ANN index on PostgreSQL. An ivfflat index is learned from the vectors already stored, so it
 * is built once there are `minRows` and built again (CREATE INDEX CONCURRENTLY, then swapped in) each time they
 * have grown `growth` times; one replica builds, under a lease in service_state. Until then searches scan exactly.
 */
export class PostgresVectorIndex {
  private state: { value: IvfflatState | null; readAt: number } = { value: null, readAt: -Infinity };
  /** Vectors this replica stored since it last counted; the next count is due past `checkAfter`. */
  private storedSinceCheck = 0;
  private checkAfter = 0;
  private running: Promise<void> | null = null;
  private buildBackend: number | null = null;
  private closed = false;

  constructor(private readonly pool: Pool, readonly options: VectorIndexOptions = DEFAULT_VECTOR_INDEX,
    private readonly log?: Logger) {}

  /**
   * In the transaction that fixes the column's dimension for a new model (`alterColumn`): the old index and its
   * state go first; an HNSW index is created at once, empty; an ivfflat index waits for vectors to learn from.
   */
  async onModelRecorded(client: PoolClient, dimension: number, alterColumn: () => Promise<void>): Promise<void> {
    await client.query(`DROP INDEX IF EXISTS ${HNSW}; DROP INDEX IF EXISTS ${IVFFLAT}; DROP INDEX IF EXISTS ${IVFFLAT_NEXT}`);
    await alterColumn();
    await client.query('DELETE FROM service_state WHERE key = $1', [STATE_KEY]);
    this.state = { value: null, readAt: -Infinity };
    this.checkAfter = this.options.minRows;
    this.storedSinceCheck = 0;
    if (this.options.kind === 'hnsw') await client.query(`CREATE INDEX ${HNSW} ON message_vectors USING hnsw (${opsFor(dimension)})`);
  }

  /** Called when vectors were stored: once enough have arrived to matter, a check (and maybe a build) runs behind. */
  noteStored(count: number): void {
    this.storedSinceCheck += count;
    if (this.options.kind === 'ivfflat' && this.storedSinceCheck >= this.checkAfter) void this.maintain();
  }

  /**
   * Brings the index in line with the configuration and the vectors stored: the configured kind (dropping the
   * other), and for ivfflat lists learned from at least `minRows` and not outgrown. Runs one at a time; errors are
   * logged, never thrown (a search works without an index, exactly).
   */
  maintain(): Promise<void> {
    if (this.closed) return Promise.resolve();
    this.running ??= this.bringInLine().catch((error: unknown) => {
      // Not again at the next batch: a build that fails (memory, a cancel) is tried again after a good many more.
      this.checkAfter = Math.max(this.options.minRows, 1_000);
      this.storedSinceCheck = 0;
      this.log?.warn({ err: error }, 'the vector index could not be brought up to date; searches scan until it is');
    }).finally(() => { this.running = null; });
    return this.running;
  }

  /** The SET LOCAL statements of an index search asking for k rows: one round trip, in the search's transaction. */
  async searchSettings(k: number): Promise<string> {
    if (this.options.kind === 'hnsw') {
      return `SET LOCAL hnsw.ef_search = ${Math.min(1000, Math.max(64, Math.trunc(k)))}; SET LOCAL hnsw.iterative_scan = relaxed_order`;
    }
    const state = await this.currentState();
    if (!state) return '';
    const probes = Math.min(state.lists, Math.max(1, Math.ceil(state.lists * this.options.probeShare)));
    // relaxed_order: a filter that admits few rows makes the scan probe more lists until it has k (or every list).
    return `SET LOCAL ivfflat.probes = ${probes}; SET LOCAL ivfflat.iterative_scan = relaxed_order; ` +
      `SET LOCAL ivfflat.max_probes = ${state.lists}`;
  }

  /** Stops a build under way (it leaves an invalid index that the next build drops) and waits for it to end. */
  async close(): Promise<void> {
    this.closed = true;
    if (this.buildBackend !== null) await this.pool.query('SELECT pg_cancel_backend($1)', [this.buildBackend]).catch(() => {});
    await this.running;
  }

  async currentState(): Promise<IvfflatState | null> {
    if (performance.now() - this.state.readAt < STATE_TTL_MS) return this.state.value;
    const { rows } = await this.pool.query<{ value: string }>('SELECT value FROM service_state WHERE key = $1', [STATE_KEY]);
    this.state = { value: rows[0] ? (JSON.parse(rows[0].value) as IvfflatState) : null, readAt: performance.now() };
    return this.state.value;
  }

  private async bringInLine(): Promise<void> {
    const dimension = await this.columnDimension();
    if (dimension === null) return; // no model recorded yet: nothing to index
    // Valid indexes only: a build cut short (or another replica's under way) leaves an invalid one.
    const indexes = await this.validIndexes();
    const { rows } = await this.pool.query<{ n: number }>('SELECT count(*) AS n FROM message_vectors');
    const stored = rows[0]!.n;
    this.storedSinceCheck = 0;
    if (this.options.kind === 'hnsw') {
      this.checkAfter = Infinity;
      if (!indexes.has(HNSW) || indexes.has(IVFFLAT)) await this.underLease(() => this.buildHnsw(dimension));
      return;
    }
    const state = indexes.has(IVFFLAT) ? await this.readState() : null;
    const due = stored >= this.options.minRows && (!state || stored >= state.rows * this.options.growth);
    let claimed = true;
    if (due) claimed = await this.underLease(() => this.buildIvfflat(dimension, stored));
    else if (indexes.has(HNSW)) claimed = await this.underLease(() => this.dropIndex(HNSW));
    if (!claimed) {
      // Another replica is building: count again only after a good many more.
      this.checkAfter = Math.max(this.options.minRows, 1_000);
      return;
    }
    const current = due ? await this.readState() : state;
    this.checkAfter = Math.max(1, (current ? current.rows * this.options.growth : this.options.minRows) - stored);
  }

  /** The graph, built concurrently; then the lists and their state go. */
  private async buildHnsw(dimension: number): Promise<void> {
    if (!(await this.validIndexes()).has(HNSW)) await this.dropIndex(HNSW);
    await this.build(`CREATE INDEX CONCURRENTLY IF NOT EXISTS ${HNSW} ON message_vectors USING hnsw (${opsFor(dimension)})`, 64);
    await this.pool.query(`DROP INDEX IF EXISTS ${IVFFLAT}; DELETE FROM service_state WHERE key = '${STATE_KEY}'`);
  }

  /** New lists learned from the `stored` vectors, built concurrently beside the old index, then swapped in for it. */
  private async buildIvfflat(dimension: number, stored: number): Promise<void> {
    const lists = listsFor(stored);
    // The build holds lists × 50 sampled vectors in memory (the default 64 MB: about 300 lists of 768 dimensions).
    const memoryMb = Math.ceil((lists * 50 * (dimension * 4 + 64) * 1.25) / 2 ** 20) + 16;
    await this.dropIndex(IVFFLAT_NEXT);
    await this.build(`CREATE INDEX CONCURRENTLY ${IVFFLAT_NEXT} ON message_vectors USING ivfflat (${opsFor(dimension)})
      WITH (lists = ${lists})`, memoryMb);
    const value: IvfflatState = { lists, rows: stored };
    const client = await this.pool.connect();
    try {
      await client.query('BEGIN');
      await client.query(`DROP INDEX IF EXISTS ${IVFFLAT}; DROP INDEX IF EXISTS ${HNSW}; ALTER INDEX ${IVFFLAT_NEXT} RENAME TO ${IVFFLAT}`);
      await client.query(`INSERT INTO service_state (key, value) VALUES ($1, $2)
        ON CONFLICT (key) DO UPDATE SET value = excluded.value`, [STATE_KEY, JSON.stringify(value)]);
      await client.query('COMMIT');
    } catch (error) {
      await client.query('ROLLBACK').catch(() => {});
      throw error;
    } finally {
      client.release();
    }
    this.state = { value, readAt: performance.now() };
    this.log?.info({ lists, vectors: stored }, 'vector index (ivfflat) built');
  }

  private async dropIndex(name: string): Promise<void> {
    await this.pool.query(`DROP INDEX IF EXISTS ${name}`);
  }

  /** CREATE INDEX CONCURRENTLY on a connection of its own (it cannot run in a transaction), cancellable by close(). */
  private async build(sql: string, memoryMb: number): Promise<void> {
    const client = await this.pool.connect();
    let broken: Error | undefined;
    try {
      this.buildBackend = (await client.query<{ pid: number }>('SELECT pg_backend_pid() AS pid')).rows[0]!.pid;
      if (this.closed) throw new Error('closing');
      await client.query(`SET maintenance_work_mem = '${Math.max(64, memoryMb)}MB'`);
      await client.query(sql);
      await client.query('RESET maintenance_work_mem');
    } catch (error) {
      broken = error as Error;
      throw error;
    } finally {
      this.buildBackend = null;
      // A connection whose build failed half-way may hold session settings: close it rather than pool it.
      client.release(broken);
    }
  }

  /** Runs work while holding the build lease; another replica holding it means the work is theirs (false). */
  private async underLease(work: () => Promise<void>): Promise<boolean> {
    const claim = () => this.pool.query(`INSERT INTO service_state (key, value) VALUES ($1, $2)
      ON CONFLICT (key) DO UPDATE SET value = excluded.value
      WHERE service_state.value::timestamptz < now() RETURNING key`, [BUILD_LEASE_KEY, new Date(Date.now() + BUILD_LEASE_MS).toISOString()]);
    if ((await claim()).rowCount === 0) return false;
    const renew = setInterval(() => {
      void this.pool.query('UPDATE service_state SET value = $2 WHERE key = $1', [BUILD_LEASE_KEY,
        new Date(Date.now() + BUILD_LEASE_MS).toISOString()]).catch(() => {});
    }, BUILD_LEASE_MS / 4);
    renew.unref();
    try {
      await work();
      return true;
    } finally {
      clearInterval(renew);
      await this.pool.query('DELETE FROM service_state WHERE key = $1', [BUILD_LEASE_KEY]).catch(() => {});
    }
  }

  private async validIndexes(): Promise<Set<string>> {
    const { rows } = await this.pool.query<{ name: string }>(`SELECT c.relname AS name FROM pg_index i
      JOIN pg_class c ON c.oid = i.indexrelid WHERE i.indrelid = 'message_vectors'::regclass AND i.indisvalid`);
    return new Set(rows.map((row) => row.name));
  }

  private async readState(): Promise<IvfflatState | null> {
    this.state.readAt = -Infinity;
    return this.currentState();
  }

  /** The column's fixed dimension, or null while it has none (no model recorded). */
  private async columnDimension(): Promise<number | null> {
    const { rows } = await this.pool.query<{ typmod: number }>(`SELECT atttypmod AS typmod FROM pg_attribute
      WHERE attrelid = 'message_vectors'::regclass AND attname = 'embedding'`);
    const typmod = rows[0]?.typmod ?? -1;
    return typmod > 0 ? typmod : null;
  }
}

/** The index expression and operator class for cosine distance. */
function opsFor(dimension: number): string {
  return dimension <= MAX_VECTOR_INDEX_DIMENSION
    ? 'embedding vector_cosine_ops'
    : `(embedding::halfvec(${dimension})) halfvec_cosine_ops`;
}
