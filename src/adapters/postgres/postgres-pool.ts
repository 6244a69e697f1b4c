import { endianness } from 'node:os';
import pg from 'pg';
import { ValidationError } from '../../domain/errors.js';

const INT8 = 20;
const NUMERIC = 1700;

/**
 * Counts, sums and bigint keys come back as numbers: message keys stay far below
 * 2^53, and the domain speaks numbers.
 */
const types = {
  getTypeParser: ((oid: number, format?: 'text' | 'binary') => {
    if (oid === INT8 || oid === NUMERIC) return (value: string) => Number(value);
    return pg.types.getTypeParser(oid, format as 'text');
  }) as typeof pg.types.getTypeParser,
};

export type Pool = pg.Pool;
export type PoolClient = pg.PoolClient;
export type Queryable = Pick<pg.Pool, 'query'> | pg.PoolClient;

export function createPool(url: string, size: number): pg.Pool {
  const pool = new pg.Pool({ connectionString: url, max: size, types, idleTimeoutMillis: 30_000 });
  // An idle client losing its connection (database restart) must not crash the process; the pool replaces it.
  pool.on('error', () => {});
  const query = pool.query.bind(pool) as (...args: unknown[]) => Promise<unknown>;
  pool.query = (async (...args: unknown[]) => {
    try {
      return await query(...args);
    } catch (error) {
      throw clientError(error);
    }
  }) as typeof pool.query;
  return pool;
}

/** SQLSTATEs of text the database cannot hold (U+0000 in a filter value): the client's input, not a fault. */
const UNSTORABLE_TEXT = new Set(['22021', '22P05']);

/** Errors caused by what the client sent become the same 400 the SQLite driver would give; others pass unchanged. */
export function clientError(error: unknown): unknown {
  const code = (error as { code?: string }).code;
  if (code !== undefined && UNSTORABLE_TEXT.has(code)) {
    return new ValidationError('text must not contain the NUL character (U+0000)');
  }
  return error;
}

/**
 * SQL written with `?` placeholders (shared with the SQLite driver) in
 * Postgres's numbered form. Our SQL has no `?` inside literals.
 */
export function numbered(sql: string, from = 1): string {
  let n = from - 1;
  return sql.replace(/\?/g, () => `$${(n += 1)}`);
}

/** Runs `work` in one transaction on one connection: everything or nothing. */
export async function inTransaction<T>(pool: pg.Pool, work: (client: pg.PoolClient) => Promise<T>): Promise<T> {
  const client = await pool.connect();
  try {
    await client.query('BEGIN');
    const result = await work(client);
    await client.query('COMMIT');
    return result;
  } catch (error) {
    await client.query('ROLLBACK').catch(() => {});
    throw clientError(error);
  } finally {
    client.release();
  }
}

/** SQLSTATEs after which the same work, run again, can succeed: deadlock_detected, serialization_failure. */
const TRANSIENT_CONFLICTS = new Set(['40P01', '40001']);

/**
 * Runs `work` (a statement or a whole transaction, which the server rolled back) again when the server broke a
 * deadlock or a serialization conflict by failing it: a few times, after a short random pause.
 */
export async function retryOnConflict<T>(work: () => Promise<T>, attempts = 5): Promise<T> {
  for (let attempt = 1; ; attempt += 1) {
    try {
      return await work();
    } catch (error) {
      const code = (error as { code?: string }).code;
      if (attempt >= attempts || code === undefined || !TRANSIENT_CONFLICTS.has(code)) throw error;
      await new Promise((resolve) => setTimeout(resolve, Math.random() * 20 * attempt));
    }
  }
}

/**
 * A message's embedding state, from its job (`LEFT JOIN embedding_jobs j ON j.message_seq = m.seq`): a message
 * without one has its vector stored (a new model gives every message a job again).
 */
export const EMBEDDING_ID = 'CASE WHEN j.message_seq IS NULL THEN m.seq::text END';
export const EMBEDDING_COLUMNS = `${EMBEDDING_ID} AS embedding_id,
  CASE WHEN j.message_seq IS NULL THEN 'done' WHEN j.failed THEN 'failed' ELSE 'pending' END AS embedding_status`;

/**
 * A vector as a binary parameter, in pgvector's wire form (`vector_recv`): dimension and a spare field (int16 each),
 * then float4s, big-endian. node-postgres sends a Buffer as a binary parameter; the statement casts it (`$1::vector`).
 * The text form ('[0.1,0.2,…]') printed each float4 as a double, about 20 characters, which the database parsed
 * again: during ingest, formatting and sending it took a sixth of the controller's CPU (bench/NOTES.md).
 */
export function toVectorBytes(vector: Float32Array): Buffer {
  const bytes = Buffer.allocUnsafe(4 + 4 * vector.length);
  bytes.writeInt16BE(vector.length, 0);
  bytes.writeInt16BE(0, 2);
  bytes.set(new Uint8Array(vector.buffer, vector.byteOffset, vector.byteLength), 4);
  if (LITTLE_ENDIAN) bytes.subarray(4).swap32();
  return bytes;
}

/**
 * `ARRAY[$first::vector, …]` over `count` binary vector parameters: node-postgres sends an array of Buffers as text,
 * so vectors go one parameter each and the statement gathers them (`unnest($1::bigint[], ARRAY[…])` pairs them).
 */
export function vectorArray(count: number, first: number): string {
  return `ARRAY[${Array.from({ length: count }, (_, i) => `$${first + i}::vector`).join(', ')}]`;
}

/** Vectors per statement: a statement takes at most 65,535 parameters. */
const MAX_VECTORS_PER_STATEMENT = 8192;

/** `items` in parts that each fit one statement of a parameter per vector (one part when they all fit). */
export function vectorParts<T>(items: readonly T[]): T[][] {
  const parts: T[][] = [];
  for (let from = 0; from < items.length; from += MAX_VECTORS_PER_STATEMENT) parts.push(items.slice(from, from + MAX_VECTORS_PER_STATEMENT));
  return parts;
}

/** A vector as pgvector's binary form (`vector_send`) gives it: dimension and a spare field (int16 each), then float4s, big-endian. */
export function fromVectorBytes(bytes: Buffer): Float32Array {
  const dimension = bytes.readInt16BE(0);
  const vector = new Float32Array(dimension);
  const own = Buffer.from(vector.buffer);
  bytes.copy(own, 0, 4, 4 + 4 * dimension);
  if (LITTLE_ENDIAN) own.swap32();
  return vector;
}

const LITTLE_ENDIAN = endianness() === 'LE';
