import { randomBytes } from 'node:crypto';
import { createPool } from '../../src/adapters/postgres/postgres-pool.js';

export interface PostgresDatabase {
  url: string;
  /** Drops the database, its connections with it. */
  stop(): Promise<void>;
}

/** A fresh database named `<prefix>_<random>` on the server `admin` connects to (tests and the postgres bench). */
export async function freshDatabase(admin: string, prefix = 'memsvc_test'): Promise<PostgresDatabase> {
  const name = `${prefix}_${randomBytes(6).toString('hex')}`;
  const pool = createPool(admin, 1);
  try {
    await pool.query(`CREATE DATABASE ${name}`);
  } finally {
    await pool.end();
  }
  const url = new URL(admin);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    stop: async () => {
      const dropper = createPool(admin, 1);
      try {
        await dropper.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      } finally {
        await dropper.end();
      }
    },
  };
}
