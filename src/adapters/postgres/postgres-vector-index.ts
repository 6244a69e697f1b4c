import type { Logger } from '../../ports/logger.js';
import type { Pool, PoolClient } from './postgres-pool.js';

/** pgvector indexes `vector` up to 2,000 dimensions; larger ones are indexed as `halfvec` (up to 4,000). */
export const MAX_VECTOR_INDEX_DIMENSION = 2000;
/** pgvector indexes halfvec up to 4,000 dimensions; beyond, every search scans. */
const MAX_HALFVEC_INDEX_DIMENSION = 4000;

/**
 * hnsw (the default): pgvector's graph over the vectors as halfvec, built as vectors arrive, searched with
 * ef_search sized from the request (on real dialogue text at 100,000 vectors: 0.968 of the exact ten at ef_search
 * 400, p50 12.6 ms on a real server; bench/NOTES.md). ivfflat: lists learned from the stored vectors, a share of them
 * probed per search (0.90 of the exact ten there at a fifth of the lists, p50 55 ms, and slower as the store grows).
 * local: no index in the database; each replica keeps a graph of the vectors in its data dir, as the SQLite driver
 * does (postgres-graph-vector-search.ts).
 */
export type VectorIndexKind = 'ivfflat' | 'hnsw' | 'local';

export interface VectorIndexOptions {
  kind: VectorIndexKind;
  /** ivfflat: the share of the lists a search probes (at least one list). */
  probeShare: number;
  /** ivfflat: below this many vectors there is no index: a search scans them all, exactly. */
  minRows: number;
  /** ivfflat: the lists are learned again once the vectors have grown this many times since the last build. */
  growth: number;
  /** hnsw: the candidate list of a search (hnsw.ef_search), at least; twice the rows asked for when that is more. */
  efSearch: number;
}

export const DEFAULT_VECTOR_INDEX: VectorIndexOptions = { kind: 'hnsw', probeShare: 0.2, minRows: 10_000, growth: 2, efSearch: 400 };
/** pgvector's ceiling for hnsw.ef_search. */
const MAX_EF_SEARCH = 1000;
/** Tuples an iterative (filtered) graph search visits at most before it settles for fewer rows than asked. */
const MAX_SCAN_TUPLES = 50_000;

/** The ivfflat index in service: its lists and how many vectors it was learned from. */
export interface IvfflatState { lists: number; rows: number }

const STATE_KEY = 'vector_index';
const BUILD_LEASE_KEY = 'vector_index_build';
const IVFFLAT = 'message_vectors_ivfflat';
const IVFFLAT_NEXT = 'message_vectors_ivfflat_next';
/** The graph over halfvec; an older store's graph over full vectors (HNSW_FULL) is replaced by it. */
const HNSW = 'message_vectors_hnsw_half';
const HNSW_FULL = 'message_vectors_hnsw';
/** A build's claim lapses unless renewed: a replica that died mid-build leaves it to another. */
const BUILD_LEASE_MS = 10 * 60_000;
/** A graph build that failed (a deadlock with another session's maintenance, say) is tried again after this long. */
const HNSW_RETRY_MS = 30_000;
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
  /** The connection a build runs on: close() ends it rather than wait for the build. */
  private building: PoolClient | null = null;
  private closed = false;

  constructor(private readonly pool: Pool, readonly options: VectorIndexOptions = DEFAULT_VECTOR_INDEX,
    private readonly log?: Logger) {}

  /**
   * In the transaction that fixes the column's dimension for a new model (`alterColumn`): the old index and its
   * state go first; an HNSW index is created at once, empty; an ivfflat index waits for vectors to learn from.
   */
  async onModelRecorded(client: PoolClient, dimension: number, alterColumn: () => Promise<void>): Promise<void> {
    await client.query(`DROP INDEX IF EXISTS ${HNSW}; DROP INDEX IF EXISTS ${HNSW_FULL}; DROP INDEX IF EXISTS ${IVFFLAT};
      DROP INDEX IF EXISTS ${IVFFLAT_NEXT}`);
    await alterColumn();
    await client.query('DELETE FROM service_state WHERE key = $1', [STATE_KEY]);
    this.state = { value: null, readAt: -Infinity };
    this.checkAfter = this.options.minRows;
    this.storedSinceCheck = 0;
    if (this.options.kind === 'hnsw' && dimension <= MAX_HALFVEC_INDEX_DIMENSION) {
      // Another replica's concurrent build may have named its index between the drop above and the column's lock
      // (and lost the deadlock that followed): the column is locked now, so what stands under the name goes.
      await client.query(`DROP INDEX IF EXISTS ${HNSW}; CREATE INDEX ${HNSW} ON message_vectors USING hnsw (${hnswOps(dimension)})`);
    }
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
      // Not again at the next batch: a build that fails (memory, a cancel) is tried again after a good many more;
      // a graph, which no stored vector asks for again, after a while.
      this.checkAfter = Math.max(this.options.minRows, 1_000);
      this.storedSinceCheck = 0;
      if (this.options.kind === 'hnsw' && !this.closed) setTimeout(() => { void this.maintain(); }, HNSW_RETRY_MS).unref();
      this.log?.warn({ err: error }, 'the vector index could not be brought up to date; searches scan until it is');
    }).finally(() => { this.running = null; });
    return this.running;
  }

  /** The SET LOCAL statements of an index search asking for k rows (under a filter or not): one round trip, in the search's transaction. */
  async searchSettings(k: number, filtered: boolean): Promise<string> {
    if (this.options.kind === 'hnsw') {
      const ef = Math.min(MAX_EF_SEARCH, Math.max(this.options.efSearch, 2 * Math.trunc(k)));
      // relaxed_order: a filter that admits few rows makes the scan go on past ef_search until it has k. Without a
      // filter ef_search >= k rows come anyway, and the iterative scan's bookkeeping cost its statement p50 12.4 ->
      // 15.6 ms (18 questions at 100K; bench/NOTES.md).
      return `SET LOCAL hnsw.ef_search = ${ef}; SET LOCAL hnsw.iterative_scan = ${filtered ? 'relaxed_order' : 'off'}; ` +
        `SET LOCAL hnsw.max_scan_tuples = ${MAX_SCAN_TUPLES}`;
    }
    const state = await this.currentState();
    if (!state) return '';
    const probes = Math.min(state.lists, Math.max(1, Math.ceil(state.lists * this.options.probeShare)));
    // relaxed_order: a filter that admits few rows makes the scan probe more lists until it has k (or every list).
    return `SET LOCAL ivfflat.probes = ${probes}; SET LOCAL ivfflat.iterative_scan = relaxed_order; ` +
      `SET LOCAL ivfflat.max_probes = ${state.lists}`;
  }

  /**
   * Leaves a build under way: its connection is ended (the server finishes or abandons the statement; what it leaves
   * under the next index's name is dropped by the next build), so a stop never waits minutes for an index.
   */
  async close(): Promise<void> {
    this.closed = true;
    await this.building?.end().catch(() => {});
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
    if (this.options.kind === 'local') {
      this.checkAfter = Infinity;
      // The database's own index would only cost every insert its graph walk.
      if ([HNSW, HNSW_FULL, IVFFLAT, IVFFLAT_NEXT].some((name) => indexes.has(name))) {
        await this.underLease(async () => {
          for (const name of [HNSW, HNSW_FULL, IVFFLAT, IVFFLAT_NEXT]) await this.dropIndex(name);
          await this.pool.query('DELETE FROM service_state WHERE key = $1', [STATE_KEY]);
        });
      }
      return;
    }
    if (this.options.kind === 'hnsw') {
      this.checkAfter = Infinity;
      if (dimension > MAX_HALFVEC_INDEX_DIMENSION) return; // no index can hold them: searches scan
      if (!indexes.has(HNSW) || indexes.has(IVFFLAT) || indexes.has(HNSW_FULL)) await this.underLease(() => this.buildHnsw(dimension));
      return;
    }
    const state = indexes.has(IVFFLAT) ? await this.readState() : null;
    const due = stored >= this.options.minRows && (!state || stored >= state.rows * this.options.growth);
    let claimed = true;
    if (due) claimed = await this.underLease(() => this.buildIvfflat(dimension, stored));
    else if (indexes.has(HNSW) || indexes.has(HNSW_FULL)) {
      claimed = await this.underLease(async () => { await this.dropIndex(HNSW); await this.dropIndex(HNSW_FULL); });
    }
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
    await this.build(`CREATE INDEX CONCURRENTLY IF NOT EXISTS ${HNSW} ON message_vectors USING hnsw (${hnswOps(dimension)})`);
    await this.pool.query(`DROP INDEX IF EXISTS ${IVFFLAT}; DROP INDEX IF EXISTS ${HNSW_FULL};
      DELETE FROM service_state WHERE key = '${STATE_KEY}'`);
  }

  /** New lists learned from the `stored` vectors, built concurrently beside the old index, then swapped in for it. */
  private async buildIvfflat(dimension: number, stored: number): Promise<void> {
    const lists = await this.listsInMemory(dimension, listsFor(stored));
    if (lists === 0) throw new Error('maintenance_work_mem is too small for an ivfflat index of one list: searches scan every vector');
    if (lists < listsFor(stored)) {
      this.log?.warn({ lists, wanted: listsFor(stored), vectors: stored },
        'maintenance_work_mem holds fewer ivfflat lists than the vectors want: give the role more (docs/deploy.md) for better recall');
    }
    await this.dropIndex(IVFFLAT_NEXT);
    await this.build(`CREATE INDEX CONCURRENTLY ${IVFFLAT_NEXT} ON message_vectors USING ivfflat (${opsFor(dimension)})
      WITH (lists = ${lists})`);
    const value: IvfflatState = { lists, rows: stored };
    const client = await this.pool.connect();
    try {
      await client.query('BEGIN');
      await client.query(`DROP INDEX IF EXISTS ${IVFFLAT}; DROP INDEX IF EXISTS ${HNSW}; DROP INDEX IF EXISTS ${HNSW_FULL};
        ALTER INDEX ${IVFFLAT_NEXT} RENAME TO ${IVFFLAT}`);
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

  /**
   * The most lists (up to `wanted`) the server's maintenance_work_mem can learn: pgvector refuses a build whose
   * k-means does not fit (ivfflatBuildBytes). A search reads the same share of the vectors whatever the number of
   * lists, but coarser lists can find less (100,000 vectors, a tenth / a fifth probed: 287 lists 0.963 / 0.983, 160
   * lists 0.873 / 0.910), so a cap that bites is logged. No session SET to raise it: that would not hold behind
   * PgBouncer in transaction mode (docs/deploy.md). 0: not even one list fits.
   */
  private async listsInMemory(dimension: number, wanted: number): Promise<number> {
    const { rows } = await this.pool.query<{ bytes: number; blocks: number }>(`SELECT
      (SELECT setting::bigint * 1024 FROM pg_settings WHERE name = 'maintenance_work_mem') AS bytes,
      pg_relation_size('message_vectors') / current_setting('block_size')::bigint AS blocks`);
    const { bytes, blocks } = rows[0]!;
    let lists = wanted;
    while (lists > 0 && ivfflatBuildBytes(lists, dimension, blocks) > bytes * 0.95) lists -= Math.max(1, Math.floor(lists / 20));
    return lists;
  }

  private async dropIndex(name: string): Promise<void> {
    await this.pool.query(`DROP INDEX IF EXISTS ${name}`);
  }

  /** CREATE INDEX CONCURRENTLY on a connection of its own (it cannot run in a transaction), which close() may end. */
  private async build(sql: string): Promise<void> {
    if (this.closed) throw new Error('closing: no index is built');
    const client = await this.pool.connect();
    this.building = client;
    let broken: Error | undefined;
    try {
      await client.query(sql);
    } catch (error) {
      broken = error as Error;
      throw error;
    } finally {
      this.building = null;
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

/** Heap tuples a page can hold at most (8 kB pages): bounds the vectors pgvector samples from a small table. */
const MAX_HEAP_TUPLES_PER_PAGE = 291;

/**
 * The memory pgvector's ivfflat build asks of maintenance_work_mem (ivfkmeans.c): max(10,000, 50 a list) sampled
 * vectors (no more than the table's pages could hold), the centres twice (and once more as floats for halfvec), and
 * the k-means bounds, of which samples × lists floats dominate at many lists.
 */
export function ivfflatBuildBytes(lists: number, dimension: number, tableBlocks: number): number {
  const halfvec = dimension > MAX_VECTOR_INDEX_DIMENSION;
  const item = 8 + (halfvec ? 2 : 4) * dimension;
  const samples = Math.max(1, Math.min(Math.max(10_000, lists * 50), tableBlocks * MAX_HEAP_TUPLES_PER_PAGE));
  const centres = lists * item * 2 + (halfvec ? lists * (8 + 4 * dimension) : 0);
  return samples * item + centres + samples * lists * 4 + samples * 8 + lists * lists * 4 + lists * 16 + 64 * 1024;
}

/**
 * The expression an index orders by, as a search must write it to use the index: the graph is built over halfvec
 * (half the memory and bandwidth, the same recall: bench/NOTES.md), the lists over full vectors while pgvector can.
 */
export function indexedDistance(kind: VectorIndexKind, dimension: number, query: string): string {
  if (kind === 'hnsw' || dimension > MAX_VECTOR_INDEX_DIMENSION) {
    return `(v.embedding::halfvec(${dimension}) <=> ${query}::vector::halfvec(${dimension}))`;
  }
  return `(v.embedding <=> ${query}::vector)`;
}

function hnswOps(dimension: number): string {
  return `(embedding::halfvec(${dimension})) halfvec_cosine_ops`;
}

/** The ivfflat index expression and operator class for cosine distance. */
function opsFor(dimension: number): string {
  return dimension <= MAX_VECTOR_INDEX_DIMENSION
    ? 'embedding vector_cosine_ops'
    : `(embedding::halfvec(${dimension})) halfvec_cosine_ops`;
}
