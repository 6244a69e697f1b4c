import { folderSubtreeRange, folderWithin } from '../sql/filter-sql.js';
import type { EmbeddingCounts, EmbeddingModelInfo, EmbeddingQueue, PendingMessage } from '../../ports/embedding-queue.js';
import { fromVectorBytes, inTransaction, numbered, retryOnConflict, toVectorBytes, vectorArray, vectorParts, type Pool } from './postgres-pool.js';
import type { PostgresVectorIndex } from './postgres-vector-index.js';

const MODEL_STATE_KEY = 'embedding_model';
/** Counts the times every stored vector went at once (a rebuild): a replica keeping its own graph then starts it again. */
export const VECTORS_EPOCH_KEY = 'vectors_epoch';
const BUMP_EPOCH = `INSERT INTO service_state (key, value) VALUES ('${VECTORS_EPOCH_KEY}', '1')
  ON CONFLICT (key) DO UPDATE SET value = (service_state.value::bigint + 1)::text`;
/** In the transaction that clears every vector: the removals are not noted one by one (vector_removals, migration 8). */
const EVERY_VECTOR = `SET LOCAL memsvc.every_vector = 'on'`;

/**
 * When the store-wide counts may be answered from the last count rather than counted again. Counting reads every job
 * and every conversation (56 ms of the server with a million messages waiting, 100,000 conversations): polled five
 * times a second during a pipeline, that was half the server's CPU (bench/NOTES.md, session 46). A count showing at
 * least `minPending` messages waiting is reused for `maxAgeMs`. It can lag behind the worker but never says that
 * nothing waits when something does, so `searchable` is never early; smaller backlogs are counted every time.
 */
export interface CountsReuse {
  minPending: number;
  maxAgeMs: number;
}

export const DEFAULT_COUNTS_REUSE: CountsReuse = { minPending: 10_000, maxAgeMs: 1000 };

/**
 * The embedding queue on a database shared by several replicas: a message's
 * job (embedding_jobs) is claimed with FOR UPDATE SKIP LOCKED under a lease
 * (claimed_until), so two workers never take the same message, and what a
 * worker that died held is taken again once its lease lapses. Completion
 * deletes the job and stores the vector.
 */
export class PostgresEmbeddingQueue implements EmbeddingQueue {
  private lastCounts: { at: number; counts: EmbeddingCounts } | null = null;

  constructor(private readonly pool: Pool, private readonly index: PostgresVectorIndex,
    private readonly countsReuse: CountsReuse = DEFAULT_COUNTS_REUSE) {}

  async claimPending(limit: number, leaseMs: number): Promise<PendingMessage[]> {
    const { rows } = await retryOnConflict(() => this.pool.query<PendingMessage>(`
      WITH claimed AS (
        UPDATE embedding_jobs SET claimed_until = now() + $2 * interval '1 millisecond'
        WHERE message_seq IN (
          SELECT message_seq FROM embedding_jobs
          WHERE NOT failed AND (claimed_until IS NULL OR claimed_until < now())
          ORDER BY message_seq LIMIT $1
          FOR UPDATE SKIP LOCKED)
        RETURNING message_seq, attempts)
      SELECT m.seq AS key, m.content, claimed.attempts FROM claimed JOIN messages m ON m.seq = claimed.message_seq
      ORDER BY m.seq`, [limit, leaseMs]));
    return rows;
  }

  /**
   * Only messages whose job is still open turn done: a batch another replica finished first (after a lapsed lease)
   * is not stored twice. The job goes and the vector comes in one statement, jobs locked first as every writer does.
   */
  async complete(model: string, items: ReadonlyArray<{ key: number; vector: Float32Array }>): Promise<number[]> {
    // Each message turns done on its own, so a batch larger than a statement holds is stored in parts.
    const done: number[] = [];
    for (const part of vectorParts(items)) done.push(...await this.completePart(model, part));
    return done;
  }

  private async completePart(model: string, items: ReadonlyArray<{ key: number; vector: Float32Array }>): Promise<number[]> {
    const { rows } = await retryOnConflict(() => this.pool.query<{ seq: number }>(`
      WITH done AS (
        DELETE FROM embedding_jobs WHERE message_seq = ANY($1::bigint[]) AND NOT failed
        RETURNING message_seq AS seq),
      input AS (SELECT * FROM unnest($1::bigint[], ${vectorArray(items.length, 3)}) AS i(seq, embedding)),
      stored AS (
        INSERT INTO message_vectors (message_seq, conversation_id, model, embedding)
        SELECT input.seq, m.conversation_id, $2, input.embedding
        FROM input JOIN done USING (seq) JOIN messages m ON m.seq = input.seq
        ON CONFLICT (message_seq) DO UPDATE SET model = excluded.model, embedding = excluded.embedding,
          added = nextval('message_vectors_added')
        RETURNING message_seq)
      SELECT message_seq AS seq FROM stored ORDER BY message_seq`,
    [items.map((item) => item.key), model, ...items.map((item) => toVectorBytes(item.vector))]));
    this.index.noteStored(rows.length);
    return rows.map((row) => row.seq);
  }

  async release(keys: readonly number[]): Promise<void> {
    if (keys.length === 0) return;
    await retryOnConflict(() => this.pool.query(
      'UPDATE embedding_jobs SET claimed_until = NULL WHERE message_seq = ANY($1::bigint[]) AND NOT failed', [[...keys]]));
  }

  async recordFailure(keys: readonly number[], error: string, maxAttempts: number): Promise<void> {
    await retryOnConflict(() => this.pool.query(`UPDATE embedding_jobs SET
        attempts = attempts + 1,
        error = $2,
        failed = attempts + 1 >= $3,
        claimed_until = NULL
      WHERE message_seq = ANY($1::bigint[]) AND NOT failed`, [keys, error.slice(0, 500), maxAttempts]));
  }

  async counts(within?: readonly string[]): Promise<EmbeddingCounts> {
    if (within !== undefined) {
      const where = folderWithin('c.folder', within, folderSubtreeRange);
      const { rows } = await this.pool.query<{ pending: number; failed: number; total: number }>(numbered(`SELECT
          count(*) FILTER (WHERE NOT j.failed) AS pending, count(*) FILTER (WHERE j.failed) AS failed,
          (SELECT coalesce(sum(message_count), 0) FROM conversations c WHERE ${where.sql})::float8 AS total
        FROM embedding_jobs j JOIN messages m ON m.seq = j.message_seq JOIN conversations c ON c.id = m.conversation_id
        WHERE ${where.sql}`), [...where.params, ...where.params]);
      const { pending, failed, total } = rows[0]!;
      return { pending: Number(pending), failed: Number(failed), done: Math.max(0, Number(total) - Number(pending) - Number(failed)) };
    }
    const last = this.lastCounts;
    if (last !== null && performance.now() - last.at < this.countsReuse.maxAgeMs) return last.counts;
    const { rows } = await this.pool.query<{ pending: number; failed: number; total: number }>(`SELECT
        count(*) FILTER (WHERE NOT failed) AS pending,
        count(*) FILTER (WHERE failed) AS failed,
        (SELECT coalesce(sum(message_count), 0) FROM conversations) AS total
      FROM embedding_jobs`);
    const { pending, failed, total } = rows[0]!;
    const counts = { pending, failed, done: Math.max(0, total - pending - failed) };
    this.lastCounts = pending >= this.countsReuse.minPending ? { at: performance.now(), counts } : null;
    return counts;
  }

  async pendingCount(within?: readonly string[]): Promise<number> {
    if (within !== undefined) {
      const where = folderWithin('c.folder', within, folderSubtreeRange);
      const { rows } = await this.pool.query<{ n: number }>(numbered(`SELECT count(*) AS n FROM embedding_jobs j
        JOIN messages m ON m.seq = j.message_seq JOIN conversations c ON c.id = m.conversation_id
        WHERE NOT j.failed AND ${where.sql}`), where.params);
      return Number(rows[0]!.n);
    }
    const { rows } = await this.pool.query<{ n: number }>('SELECT count(*) AS n FROM embedding_jobs WHERE NOT failed');
    return rows[0]!.n;
  }

  async oldestPendingTimestamp(): Promise<string | null> {
    const { rows } = await this.pool.query<{ timestamp: string }>(`SELECT m.timestamp FROM embedding_jobs j
      JOIN messages m ON m.seq = j.message_seq WHERE NOT j.failed ORDER BY j.message_seq LIMIT 1`);
    return rows[0]?.timestamp ?? null;
  }

  /**
   * Every message gets an open job again and every vector goes. Jobs first, as complete() takes them, so a worker
   * finishing a batch meanwhile waits or goes first rather than deadlocking; a deadlock the server still finds
   * (row order within a table) is retried whole.
   */
  async resetAll(): Promise<number> {
    this.lastCounts = null;
    return retryOnConflict(() => inTransaction(this.pool, async (client) => {
      await client.query('DELETE FROM embedding_jobs');
      // A message appended meanwhile came with its job: it is open again like the rest.
      const reset = await client.query(`INSERT INTO embedding_jobs (message_seq) SELECT seq FROM messages
        ON CONFLICT (message_seq) DO UPDATE SET attempts = 0, failed = false, error = NULL, claimed_until = NULL`);
      await client.query(EVERY_VECTOR);
      await client.query('DELETE FROM message_vectors');
      await client.query('DELETE FROM service_state WHERE key = $1', [MODEL_STATE_KEY]);
      await client.query(BUMP_EPOCH);
      return reset.rowCount ?? 0;
    }));
  }

  async *vectorKeys(pageSize: number): AsyncIterable<number[]> {
    let after = -1;
    for (;;) {
      const { rows } = await this.pool.query<{ key: number }>(`SELECT message_seq AS key
        FROM message_vectors WHERE message_seq > $1 ORDER BY message_seq LIMIT $2`, [after, pageSize]);
      if (rows.length === 0) return;
      after = rows[rows.length - 1]!.key;
      yield rows.map((row) => row.key);
    }
  }

  async vectorsByKey(keys: readonly number[]): Promise<Array<{ key: number; vector: Float32Array }>> {
    if (keys.length === 0) return [];
    // Binary: at a million vectors a replica's first start reads them all, and text costs 8 kB a vector to parse.
    const { rows } = await this.pool.query<{ key: number; embedding: Buffer }>(`SELECT message_seq AS key,
      vector_send(embedding) AS embedding FROM message_vectors WHERE message_seq = ANY($1::bigint[])`, [[...keys]]);
    return rows.map((row) => ({ key: row.key, vector: fromVectorBytes(row.embedding) }));
  }

  async recordedModel(): Promise<EmbeddingModelInfo | null> {
    const { rows } = await this.pool.query<{ value: string }>('SELECT value FROM service_state WHERE key = $1', [MODEL_STATE_KEY]);
    return rows[0] ? (JSON.parse(rows[0].value) as EmbeddingModelInfo) : null;
  }

  /**
   * First writer wins. Recording a model also fixes the vector column's
   * dimension and resets its index (postgres-vector-index.ts), under the same
   * lock, so replicas starting together do it once.
   */
  async recordModel(info: EmbeddingModelInfo): Promise<EmbeddingModelInfo> {
    // A graph built concurrently by another replica waits for this transaction while it waits for the build's lock:
    // the server breaks the cycle by failing one of them, and this one is then run again.
    return retryOnConflict(() => inTransaction(this.pool, async (client) => {
      await client.query('LOCK TABLE service_state IN SHARE ROW EXCLUSIVE MODE');
      const { rows } = await client.query<{ value: string }>('SELECT value FROM service_state WHERE key = $1', [MODEL_STATE_KEY]);
      if (rows[0]) return JSON.parse(rows[0].value) as EmbeddingModelInfo;
      await client.query('INSERT INTO service_state (key, value) VALUES ($1, $2)', [MODEL_STATE_KEY, JSON.stringify(info)]);
      const dimension = Math.trunc(info.dimension);
      await client.query(EVERY_VECTOR);
      await client.query('DELETE FROM message_vectors');
      await client.query(BUMP_EPOCH);
      await this.index.onModelRecorded(client, dimension, async () => {
        await client.query(`ALTER TABLE message_vectors ALTER COLUMN embedding TYPE vector(${dimension})`);
      });
      return info;
    }));
  }
}
