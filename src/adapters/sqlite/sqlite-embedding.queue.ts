import { folderWithin } from '../sql/filter-sql.js';
import type { Database, Statement } from 'better-sqlite3';
import type { EmbeddingCounts, EmbeddingModelInfo, EmbeddingQueue, PendingMessage } from '../../ports/embedding-queue.js';
import { inKeys, keysParam, StatementCache } from './sqlite-statements.js';
import { atomically } from './atomically.js';

const MODEL_STATE_KEY = 'embedding_model';

/**
 * Restates the partial index's condition (messages_embedding_pending: WHERE embedding_status != 'done'). SQLite
 * uses a partial index only for a query whose WHERE contains that term itself: it does not infer it from
 * `= 'pending'`, and without it every poll of the worker and every pending count scanned all messages.
 */
const USES_PENDING_INDEX = `m.embedding_status != 'done'`;

/**
 * Messages in one embedding state, from the counts of migration 5: one row, however long the queue. Triggers keep
 * them through deletes and state changes; the statements that insert messages add theirs (addPendingMessages).
 */
export function messagesInState(prepare: (sql: string) => Statement, status: keyof EmbeddingCounts): number {
  return (prepare('SELECT n FROM embedding_counts WHERE status = ?').pluck().get(status) as number | undefined) ?? 0;
}

/** Counts `count` messages just inserted (they start pending), in the transaction that inserted them. */
export function addPendingMessages(prepare: (sql: string) => Statement, count: number): void {
  if (count > 0) prepare(`UPDATE embedding_counts SET n = n + ? WHERE status = 'pending'`).run(count);
}

export const vectorToBlob = (vector: Float32Array): Buffer =>
  Buffer.from(vector.buffer, vector.byteOffset, vector.byteLength);

/** Copies, because SQLite's buffers need not be 4-byte aligned as Float32Array requires. */
export function blobToVector(blob: Buffer): Float32Array {
  const bytes = new Uint8Array(blob.byteLength);
  bytes.set(blob);
  return new Float32Array(bytes.buffer);
}

export class SqliteEmbeddingQueue implements EmbeddingQueue {
  private readonly statements: StatementCache;

  constructor(private readonly db: Database) {
    this.statements = new StatementCache(db);
  }

  /**
   * One process owns a SQLite store and its worker runs one batch at a time, so
   * a claim needs no lease here: pending messages are simply read in order.
   */
  async claimPending(limit: number, _leaseMs: number): Promise<PendingMessage[]> {
    return this.statements.get(`
      SELECT m.seq AS key, m.content, m.embedding_attempts AS attempts
      FROM messages m
      WHERE m.embedding_status = 'pending' AND ${USES_PENDING_INDEX}
      ORDER BY m.seq
      LIMIT ?`).all(limit) as PendingMessage[];
  }

  /** Nothing to hand back: claims hold no lease here. */
  async release(_keys: readonly number[]): Promise<void> {}

  async complete(model: string, items: ReadonlyArray<{ key: number; vector: Float32Array }>): Promise<number[]> {
    // Marked done first: a message deleted meanwhile changes no row, and gets no vector.
    const markDone = this.statements.get(`UPDATE messages
      SET embedding_status = 'done', embedding_id = ?, embedding_error = NULL WHERE seq = ?`);
    const insert = this.statements.get('INSERT OR REPLACE INTO message_vectors (message_seq, model, vector) VALUES (?, ?, ?)');
    return atomically(this.db, () => {
      const stored: number[] = [];
      for (const { key, vector } of items) {
        if (markDone.run(String(key), key).changes === 0) continue;
        insert.run(key, model, vectorToBlob(vector));
        stored.push(key);
      }
      return stored;
    });
  }

  async recordFailure(keys: readonly number[], error: string, maxAttempts: number): Promise<void> {
    const update = this.statements.get(`UPDATE messages SET
        embedding_attempts = embedding_attempts + 1,
        embedding_error = ?,
        embedding_status = CASE WHEN embedding_attempts + 1 >= ? THEN 'failed' ELSE 'pending' END
      WHERE seq = ?`);
    atomically(this.db, () => { for (const key of keys) update.run(error.slice(0, 500), maxAttempts, key); });
  }

  /** From the counts of migration 5 (see messagesInState): a read of three rows, however long the queue. */
  async counts(within?: readonly string[]): Promise<EmbeddingCounts> {
    if (within !== undefined) {
      const where = folderWithin('c.folder', within);
      const counted = this.statements.get(`SELECT m.embedding_status AS status, count(*) AS n
        FROM conversations c JOIN messages m ON m.conversation_id = c.id WHERE ${where.sql} GROUP BY m.embedding_status`)
        .all(...where.params) as Array<{ status: keyof EmbeddingCounts; n: number }>;
      const counts: EmbeddingCounts = { pending: 0, done: 0, failed: 0 };
      for (const row of counted) counts[row.status] = row.n;
      return counts;
    }
    const rows = this.statements.get('SELECT status, n FROM embedding_counts').all() as Array<{ status: keyof EmbeddingCounts; n: number }>;
    const counts: EmbeddingCounts = { pending: 0, done: 0, failed: 0 };
    for (const row of rows) counts[row.status] = row.n;
    return counts;
  }

  async pendingCount(within?: readonly string[]): Promise<number> {
    if (within !== undefined) {
      const where = folderWithin('c.folder', within);
      return this.statements.get(`SELECT count(*) FROM messages m JOIN conversations c ON c.id = m.conversation_id
        WHERE m.embedding_status = 'pending' AND ${USES_PENDING_INDEX} AND ${where.sql}`).pluck().get(...where.params) as number;
    }
    return messagesInState((sql) => this.statements.get(sql), 'pending');
  }

  async oldestPendingTimestamp(): Promise<string | null> {
    const timestamp = this.statements.get(`SELECT m.timestamp FROM messages m
      WHERE m.embedding_status = 'pending' AND ${USES_PENDING_INDEX} ORDER BY m.seq LIMIT 1`).pluck().get() as string | undefined;
    return timestamp ?? null;
  }

  async resetAll(): Promise<number> {
    return atomically(this.db, () => {
      this.db.exec('DELETE FROM message_vectors');
      const reset = this.statements.get(`UPDATE messages SET embedding_status = 'pending', embedding_id = NULL,
        embedding_attempts = 0, embedding_error = NULL`).run();
      this.statements.get('DELETE FROM service_state WHERE key = ?').run(MODEL_STATE_KEY);
      return reset.changes;
    });
  }

  async *vectorKeys(pageSize: number): AsyncIterable<number[]> {
    // From the keys' own index (migration 7), never the table, whose rows hold the vectors.
    const page = this.db.prepare(`SELECT message_seq FROM message_vectors INDEXED BY message_vectors_keys
      WHERE message_seq > ? ORDER BY message_seq LIMIT ?`).pluck();
    let after = -1;
    for (;;) {
      const keys = page.all(after, pageSize) as number[];
      if (keys.length === 0) return;
      after = keys[keys.length - 1]!;
      yield keys;
    }
  }

  async vectorsByKey(keys: readonly number[]): Promise<Array<{ key: number; vector: Float32Array }>> {
    if (keys.length === 0) return [];
    const rows = this.statements.get(`SELECT message_seq AS key, vector FROM message_vectors
      WHERE ${inKeys('message_seq')}`).all(keysParam(keys)) as Array<{ key: number; vector: Buffer }>;
    return rows.map((row) => ({ key: row.key, vector: blobToVector(row.vector) }));
  }

  async recordedModel(): Promise<EmbeddingModelInfo | null> {
    const value = this.db.prepare('SELECT value FROM service_state WHERE key = ?').pluck().get(MODEL_STATE_KEY) as
      string | undefined;
    return value === undefined ? null : (JSON.parse(value) as EmbeddingModelInfo);
  }

  async recordModel(info: EmbeddingModelInfo): Promise<EmbeddingModelInfo> {
    this.db.prepare('INSERT OR IGNORE INTO service_state (key, value) VALUES (?, ?)').run(MODEL_STATE_KEY, JSON.stringify(info));
    return (await this.recordedModel())!;
  }
}
