import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { SIGNING_SECRET_KEY } from '../sql/api-key-rows.js';
import BetterSqlite3 from 'better-sqlite3';
import { DATABASE_FILE } from '../sqlite/sqlite-storage.js';
import { blobToVector } from '../sqlite/sqlite-embedding.queue.js';
import { PostgresEmbeddingQueue } from './postgres-embedding.queue.js';
import { PostgresVectorIndex } from './postgres-vector-index.js';
import { searchVector, wordsOf } from './postgres-fts-index.js';
import { migratePostgres } from './postgres-migrations.js';
import { createPool, inTransaction, toVectorBytes, vectorArray, vectorParts, type PoolClient } from './postgres-pool.js';

export interface CopyProgress {
  conversations: number;
  totalConversations: number;
  copied: number;
  skipped: number;
}

export interface CopyOptions {
  dataDir: string;
  url: string;
  /** Conversations per transaction: a batch is copied whole or not at all. */
  batchSize?: number;
  onProgress?(progress: CopyProgress): void;
  /** Stop after this many batches (to test resuming). */
  maxBatches?: number;
}

export interface StoreCounts {
  conversations: number;
  messages: number;
  vectors: number;
  summaries: number;
}

export interface CopyReport {
  copied: number;
  skipped: number;
  source: StoreCounts;
  target: StoreCounts;
  /** Every count of the target equals the source's. */
  verified: boolean;
  complete: boolean;
}

interface ConversationRow {
  id: string; label: string; folder: string; status: string; importance_score: number; word_count: number;
  message_count: number; session_count: number; created_at: string; updated_at: string; last_message_at: string | null;
  last_accessed_at: string;
}

/**
 * Moves a SQLite store into PostgreSQL without re-embedding: conversations,
 * messages (same ids), stored vectors, summaries and the recorded model.
 * Each batch of conversations is one transaction, and conversations already in
 * the target are skipped, so an interrupted copy resumes where it stopped.
 * Messages still pending embedding stay pending; the postgres worker embeds them.
 */
export async function copySqliteToPostgres(options: CopyOptions): Promise<CopyReport> {
  const file = join(options.dataDir, DATABASE_FILE);
  if (!existsSync(file)) throw new Error(`no SQLite store at ${file}`);
  const sqlite = new BetterSqlite3(file, { readonly: true, fileMustExist: true });
  const pool = createPool(options.url, 2);
  const batchSize = options.batchSize ?? 200;
  try {
    await migratePostgres(pool);
    const model = sqlite.prepare(`SELECT value FROM service_state WHERE key = 'embedding_model'`).pluck().get() as string | undefined;
    if (model !== undefined) {
      // The target's index is reset for the model and built by the service once it runs (postgres-vector-index.ts).
      const recorded = await new PostgresEmbeddingQueue(pool, new PostgresVectorIndex(pool)).recordModel(JSON.parse(model));
      if (JSON.stringify(recorded) !== JSON.stringify(JSON.parse(model))) {
        throw new Error(`the target records vectors of ${recorded.model}; the source's are ${JSON.parse(model).model}`);
      }
    }
    await copyKeys(sqlite, pool);
    const totalConversations = sqlite.prepare('SELECT count(*) FROM conversations').pluck().get() as number;
    const page = sqlite.prepare(`SELECT * FROM conversations WHERE (created_at, id) > (?, ?) ORDER BY created_at, id LIMIT ?`);
    let after: [string, string] = ['', ''];
    const progress: CopyProgress = { conversations: 0, totalConversations, copied: 0, skipped: 0 };
    let batches = 0;
    let complete = true;
    for (;;) {
      if (options.maxBatches !== undefined && batches >= options.maxBatches) { complete = false; break; }
      const rows = page.all(after[0], after[1], batchSize) as ConversationRow[];
      if (rows.length === 0) break;
      after = [rows.at(-1)!.created_at, rows.at(-1)!.id];
      const copied = await inTransaction(pool, (client) => copyBatch(client, sqlite, rows));
      progress.conversations += rows.length;
      progress.copied += copied;
      progress.skipped += rows.length - copied;
      batches += 1;
      options.onProgress?.({ ...progress });
    }
    const source = sqliteCounts(sqlite);
    const target = await postgresCounts(pool);
    const verified = complete && (Object.keys(source) as Array<keyof StoreCounts>).every((key) => source[key] === target[key]);
    return { copied: progress.copied, skipped: progress.skipped, source, target, verified, complete };
  } finally {
    sqlite.close();
    await pool.end();
  }
}

/**
 * API keys (hashes only) and the token signing secret, so keys and unexpired tenant tokens keep working after the
 * move. A key already there (the same id, or an active one with the name) is left as it is.
 */
async function copyKeys(sqlite: BetterSqlite3.Database, pool: ReturnType<typeof createPool>): Promise<void> {
  const hasKeys = sqlite.prepare(`SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'api_keys'`).get() !== undefined;
  if (hasKeys) {
    const keys = sqlite.prepare('SELECT * FROM api_keys ORDER BY created_at, id').all() as Array<{
      id: string; name: string; grants: string; admin: number; requests_per_second: number | null; burst: number | null;
      secret_hash: string; created_at: string; last_used_at: string | null; revoked_at: string | null }>;
    for (const key of keys) {
      await pool.query(`INSERT INTO api_keys (id, name, grants, admin, requests_per_second, burst, secret_hash, created_at,
          last_used_at, revoked_at) VALUES ($1, $2, $3::jsonb, $4, $5, $6, $7, $8, $9, $10) ON CONFLICT DO NOTHING`,
      [key.id, key.name, key.grants, key.admin === 1, key.requests_per_second, key.burst, key.secret_hash, key.created_at,
        key.last_used_at, key.revoked_at]);
    }
  }
  const secret = sqlite.prepare('SELECT value FROM service_state WHERE key = ?').pluck().get(SIGNING_SECRET_KEY) as string | undefined;
  if (secret !== undefined) {
    await pool.query('INSERT INTO service_state (key, value) VALUES ($1, $2) ON CONFLICT (key) DO NOTHING', [SIGNING_SECRET_KEY, secret]);
  }
}

async function copyBatch(client: PoolClient, sqlite: BetterSqlite3.Database, rows: ConversationRow[]): Promise<number> {
  const inserted = await client.query<{ id: string }>(`
    INSERT INTO conversations (id, label, folder, status, importance_score, word_count, message_count, session_count,
      created_at, updated_at, last_message_at, last_accessed_at)
    SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::int[], $6::int[], $7::int[], $8::int[],
      $9::text[], $10::text[], $11::text[], $12::text[])
    ON CONFLICT (id) DO NOTHING RETURNING id`,
  [rows.map((r) => r.id), rows.map((r) => r.label), rows.map((r) => r.folder), rows.map((r) => r.status),
    rows.map((r) => r.importance_score), rows.map((r) => r.word_count), rows.map((r) => r.message_count),
    rows.map((r) => r.session_count), rows.map((r) => r.created_at), rows.map((r) => r.updated_at),
    rows.map((r) => r.last_message_at), rows.map((r) => r.last_accessed_at)]);
  const ids = inserted.rows.map((row) => row.id);
  if (ids.length === 0) return 0;
  const idList = JSON.stringify(ids);

  // A store from before author names (SQLite migration 12) has no name column: its messages have none.
  const name = hasColumn(sqlite, 'messages', 'name') ? 'name' : 'NULL AS name';
  const messages = sqlite.prepare(`SELECT id, conversation_id, position, role, ${name}, content, timestamp, metadata, embedding_status,
      embedding_attempts, embedding_error FROM messages WHERE conversation_id IN (SELECT value FROM json_each(?))`).all(idList) as Array<{
    id: string; conversation_id: string; position: number; role: string; name: string | null; content: string; timestamp: string;
    metadata: string | null; embedding_status: string; embedding_attempts: number; embedding_error: string | null;
  }>;
  if (messages.length > 0) {
    // Full text with neighbours computed as the rows go in (each row written once), as appends do; OFFSET 0 keeps
    // the subquery whole, so each text is parsed once (see messageInsertCtes).
    await client.query(`
      INSERT INTO messages (id, conversation_id, position, role, name, content, timestamp, metadata, search_tsv)
      SELECT id, conversation_id, position, role, name, content, timestamp, metadata,
        ${searchVector('words', 'lag(words) OVER w', 'lead(words) OVER w')}
      FROM (SELECT *, ${wordsOf('content')} AS words
        FROM unnest($1::text[], $2::text[], $3::int[], $4::text[], $5::text[], $6::text[], $7::text[], $8::text[])
        AS i(id, conversation_id, position, role, content, timestamp, metadata, name) OFFSET 0) i
      WINDOW w AS (PARTITION BY conversation_id ORDER BY position)`,
    [messages.map((m) => m.id), messages.map((m) => m.conversation_id), messages.map((m) => m.position),
      messages.map((m) => m.role), messages.map((m) => m.content), messages.map((m) => m.timestamp),
      messages.map((m) => m.metadata), messages.map((m) => m.name)]);
  }

  const vectors = sqlite.prepare(`SELECT m.id, v.model, v.vector FROM message_vectors v JOIN messages m ON m.seq = v.message_seq
      WHERE m.conversation_id IN (SELECT value FROM json_each(?))`).all(idList) as Array<{ id: string; model: string; vector: Buffer }>;
  for (const part of vectorParts(vectors)) {
    // Keys differ between the stores; messages keep their ids, so vectors follow them by id.
    await client.query(`
      WITH input AS (SELECT * FROM unnest($1::text[], $2::text[], ${vectorArray(part.length, 3)}) AS i(id, model, embedding))
      INSERT INTO message_vectors (message_seq, conversation_id, model, embedding)
      SELECT m.seq, m.conversation_id, input.model, input.embedding FROM input JOIN messages m ON m.id = input.id`,
    [part.map((v) => v.id), part.map((v) => v.model), ...part.map((v) => toVectorBytes(blobToVector(v.vector)))]);
  }
  if (messages.length > 0) {
    // A message without a vector keeps its place in the queue (and a failed one its attempts and error).
    await client.query(`
      INSERT INTO embedding_jobs (message_seq, attempts, failed, error)
      SELECT m.seq, i.attempts, i.status = 'failed', i.error
      FROM unnest($1::text[], $2::text[], $3::int[], $4::text[]) AS i(id, status, attempts, error)
      JOIN messages m ON m.id = i.id
      WHERE NOT EXISTS (SELECT 1 FROM message_vectors v WHERE v.message_seq = m.seq)`,
    [messages.map((m) => m.id), messages.map((m) => m.embedding_status), messages.map((m) => m.embedding_attempts),
      messages.map((m) => m.embedding_error)]);
  }

  const summaries = sqlite.prepare(`SELECT * FROM summaries WHERE conversation_id IN (SELECT value FROM json_each(?))`).all(idList) as Array<{
    conversation_id: string; level: string; source_hash: string; window_start: string; window_end: string; source_count: number;
    summary: string; model: string; generated_at: string;
  }>;
  if (summaries.length > 0) {
    await client.query(`
      INSERT INTO summaries (conversation_id, level, source_hash, window_start, window_end, source_count, summary, model, generated_at)
      SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::int[], $7::text[], $8::text[], $9::text[])`,
    [summaries.map((s) => s.conversation_id), summaries.map((s) => s.level), summaries.map((s) => s.source_hash),
      summaries.map((s) => s.window_start), summaries.map((s) => s.window_end), summaries.map((s) => s.source_count),
      summaries.map((s) => s.summary), summaries.map((s) => s.model), summaries.map((s) => s.generated_at)]);
  }
  return ids.length;
}

const hasColumn = (db: BetterSqlite3.Database, table: string, column: string) =>
  (db.prepare(`SELECT 1 FROM pragma_table_info(?) WHERE name = ?`).get(table, column)) !== undefined;

function sqliteCounts(db: BetterSqlite3.Database): StoreCounts {
  const count = (table: string) => db.prepare(`SELECT count(*) FROM ${table}`).pluck().get() as number;
  return { conversations: count('conversations'), messages: count('messages'), vectors: count('message_vectors'), summaries: count('summaries') };
}

async function postgresCounts(pool: ReturnType<typeof createPool>): Promise<StoreCounts> {
  const { rows } = await pool.query<StoreCounts>(`SELECT
    (SELECT count(*) FROM conversations) AS conversations, (SELECT count(*) FROM messages) AS messages,
    (SELECT count(*) FROM message_vectors) AS vectors, (SELECT count(*) FROM summaries) AS summaries`);
  return rows[0]!;
}
