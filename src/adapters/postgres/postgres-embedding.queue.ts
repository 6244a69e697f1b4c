import type { EmbeddingCounts, EmbeddingModelInfo, EmbeddingQueue, PendingMessage } from '../../ports/embedding-queue.js';
import { fromVectorText, inTransaction, toVectorText, type Pool } from './postgres-pool.js';
import type { PostgresVectorIndex } from './postgres-vector-index.js';

const MODEL_STATE_KEY = 'embedding_model';

/**
 * The embedding queue on a database shared by several replicas: pending
 * messages are claimed with FOR UPDATE SKIP LOCKED under a lease
 * (claimed_until), so two workers never take the same message, and what a
 * worker that died held is taken again once its lease lapses.
 */
export class PostgresEmbeddingQueue implements EmbeddingQueue {
  constructor(private readonly pool: Pool, private readonly index: PostgresVectorIndex) {}

  async claimPending(limit: number, leaseMs: number): Promise<PendingMessage[]> {
    const { rows } = await this.pool.query<PendingMessage>(`
      WITH claimed AS (
        UPDATE messages SET claimed_until = now() + $2 * interval '1 millisecond'
        WHERE seq IN (
          SELECT seq FROM messages
          WHERE embedding_status = 'pending' AND (claimed_until IS NULL OR claimed_until < now())
          ORDER BY seq LIMIT $1
          FOR UPDATE SKIP LOCKED)
        RETURNING seq, content, embedding_attempts)
      SELECT seq AS key, content, embedding_attempts AS attempts FROM claimed ORDER BY seq`, [limit, leaseMs]);
    return rows;
  }

  /** Only messages still pending turn done: a batch another replica finished first (after a lapsed lease) is not counted twice. */
  async complete(model: string, items: ReadonlyArray<{ key: number; vector: Float32Array }>): Promise<number[]> {
    if (items.length === 0) return [];
    const { rows } = await this.pool.query<{ seq: number }>(`
      WITH done AS (
        UPDATE messages SET embedding_status = 'done', embedding_id = seq::text, embedding_error = NULL, claimed_until = NULL
        WHERE seq = ANY($1::bigint[]) AND embedding_status = 'pending'
        RETURNING seq),
      input AS (SELECT * FROM unnest($1::bigint[], $2::text[]) AS i(seq, embedding)),
      stored AS (
        INSERT INTO message_vectors (message_seq, model, embedding)
        SELECT input.seq, $3, input.embedding::vector FROM input JOIN done USING (seq)
        ON CONFLICT (message_seq) DO UPDATE SET model = excluded.model, embedding = excluded.embedding
        RETURNING message_seq)
      SELECT message_seq AS seq FROM stored ORDER BY message_seq`,
    [items.map((item) => item.key), items.map((item) => toVectorText(item.vector)), model]);
    this.index.noteStored(rows.length);
    return rows.map((row) => row.seq);
  }

  async recordFailure(keys: readonly number[], error: string, maxAttempts: number): Promise<void> {
    await this.pool.query(`UPDATE messages SET
        embedding_attempts = embedding_attempts + 1,
        embedding_error = $2,
        embedding_status = CASE WHEN embedding_attempts + 1 >= $3 THEN 'failed' ELSE 'pending' END,
        claimed_until = NULL
      WHERE seq = ANY($1::bigint[]) AND embedding_status = 'pending'`, [keys, error.slice(0, 500), maxAttempts]);
  }

  async counts(): Promise<EmbeddingCounts> {
    const { rows } = await this.pool.query<{ pending: number; failed: number; total: number }>(`SELECT
        count(*) FILTER (WHERE embedding_status = 'pending') AS pending,
        count(*) FILTER (WHERE embedding_status = 'failed') AS failed,
        (SELECT coalesce(sum(message_count), 0) FROM conversations) AS total
      FROM messages WHERE embedding_status <> 'done'`);
    const { pending, failed, total } = rows[0]!;
    return { pending, failed, done: Math.max(0, total - pending - failed) };
  }

  async pendingCount(): Promise<number> {
    const { rows } = await this.pool.query<{ n: number }>(`SELECT count(*) AS n FROM messages WHERE embedding_status = 'pending'`);
    return rows[0]!.n;
  }

  async oldestPendingTimestamp(): Promise<string | null> {
    const { rows } = await this.pool.query<{ timestamp: string }>(`SELECT timestamp FROM messages
      WHERE embedding_status = 'pending' ORDER BY seq LIMIT 1`);
    return rows[0]?.timestamp ?? null;
  }

  async resetAll(): Promise<number> {
    return inTransaction(this.pool, async (client) => {
      await client.query('DELETE FROM message_vectors');
      const reset = await client.query(`UPDATE messages SET embedding_status = 'pending', embedding_id = NULL,
        embedding_attempts = 0, embedding_error = NULL, claimed_until = NULL`);
      await client.query('DELETE FROM service_state WHERE key = $1', [MODEL_STATE_KEY]);
      return reset.rowCount ?? 0;
    });
  }

  async *allVectors(chunkSize: number): AsyncIterable<Array<{ key: number; vector: Float32Array }>> {
    let after = -1;
    for (;;) {
      const { rows } = await this.pool.query<{ key: number; embedding: string }>(`SELECT message_seq AS key, embedding::text AS embedding
        FROM message_vectors WHERE message_seq > $1 ORDER BY message_seq LIMIT $2`, [after, chunkSize]);
      if (rows.length === 0) return;
      after = rows[rows.length - 1]!.key;
      yield rows.map((row) => ({ key: row.key, vector: fromVectorText(row.embedding) }));
    }
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
    const { rows } = await this.pool.query<{ key: number; embedding: string }>(`SELECT message_seq AS key,
      embedding::text AS embedding FROM message_vectors WHERE message_seq = ANY($1::bigint[])`, [[...keys]]);
    return rows.map((row) => ({ key: row.key, vector: fromVectorText(row.embedding) }));
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
    return inTransaction(this.pool, async (client) => {
      await client.query('LOCK TABLE service_state IN SHARE ROW EXCLUSIVE MODE');
      const { rows } = await client.query<{ value: string }>('SELECT value FROM service_state WHERE key = $1', [MODEL_STATE_KEY]);
      if (rows[0]) return JSON.parse(rows[0].value) as EmbeddingModelInfo;
      await client.query('INSERT INTO service_state (key, value) VALUES ($1, $2)', [MODEL_STATE_KEY, JSON.stringify(info)]);
      const dimension = Math.trunc(info.dimension);
      await client.query('DELETE FROM message_vectors');
      await this.index.onModelRecorded(client, dimension, async () => {
        await client.query(`ALTER TABLE message_vectors ALTER COLUMN embedding TYPE vector(${dimension})`);
      });
      return info;
    });
  }
}
