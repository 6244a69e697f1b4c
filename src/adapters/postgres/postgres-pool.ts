import pg from 'pg';

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
  return pool;
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
    throw error;
  } finally {
    client.release();
  }
}

/** pgvector's text form of a vector: '[0.1,0.2,…]'. */
export const toVectorText = (vector: Float32Array): string => `[${Array.from(vector).join(',')}]`;
export const fromVectorText = (text: string): Float32Array => Float32Array.from(JSON.parse(text) as number[]);
