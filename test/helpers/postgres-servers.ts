import { createPool } from '../../src/adapters/postgres/postgres-pool.js';
import { startPgliteServer } from '../../scripts/lib/pglite-server.js';
import { freshDatabase as freshServerDatabase, type PostgresDatabase } from '../../scripts/lib/postgres-database.js';

export type { PostgresDatabase };

/**
 * The PostgreSQL servers the driver's tests run against: always PGlite (PostgreSQL 18 + pgvector in WASM, one
 * session: correct SQL, but no lock ordering, deadlocks or real type coercion), and a real server whenever one with
 * pgvector is reachable (MEMSVC_TEST_POSTGRES_ADMIN_URL, by default the local one). Each database a test opens on
 * the real server is its own, made fresh and dropped after.
 */
export interface PostgresTarget {
  name: string;
  /** A fresh, empty database. */
  open(): Promise<PostgresDatabase>;
}

export const ADMIN_URL = process.env.MEMSVC_TEST_POSTGRES_ADMIN_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

export const PGLITE_TARGET: PostgresTarget = {
  name: 'PGlite (PostgreSQL 18 + pgvector)',
  open: async () => {
    const server = await startPgliteServer();
    return { url: server.url, stop: () => server.stop() };
  },
};

/** What the real server at ADMIN_URL offers: null when none answers. */
export async function probeServer(url = ADMIN_URL): Promise<{ version: string; pgvector: string | null } | null> {
  const pool = createPool(url, 1);
  try {
    const { rows } = await pool.query<{ version: string; pgvector: string | null }>(`SELECT current_setting('server_version') AS version,
      (SELECT default_version FROM pg_available_extensions WHERE name = 'vector') AS pgvector`);
    return rows[0]!;
  } catch {
    return null;
  } finally {
    await pool.end().catch(() => {});
  }
}

/** A fresh database on the real server (dropped, with its connections, by stop()). */
export const freshDatabase = (admin = ADMIN_URL): Promise<PostgresDatabase> => freshServerDatabase(admin);

const server = await probeServer();
/** The real server with pgvector, when one is reachable. */
export const REAL_SERVER_TARGET: PostgresTarget | null = server?.pgvector
  ? { name: `PostgreSQL ${server.version} + pgvector ${server.pgvector} (${new URL(ADMIN_URL).host})`, open: () => freshDatabase() }
  : null;
/** Why the real server's cases do not run here, or null when they do. */
export const REAL_SERVER_SKIP: string | false = REAL_SERVER_TARGET ? false : server
  ? `PostgreSQL ${server.version} at ${new URL(ADMIN_URL).host} has no pgvector: its cases run on PGlite only`
  : `no PostgreSQL at ${new URL(ADMIN_URL).host} (MEMSVC_TEST_POSTGRES_ADMIN_URL): its cases run on PGlite only`;
/** A real server without pgvector (or with it): for cases that need no vectors. */
export const SERVER_AVAILABLE = server !== null;

/** PGlite, and the real server with pgvector when there is one. */
export const POSTGRES_TARGETS: readonly PostgresTarget[] = REAL_SERVER_TARGET ? [PGLITE_TARGET, REAL_SERVER_TARGET] : [PGLITE_TARGET];
if (REAL_SERVER_SKIP) console.log(`# ${REAL_SERVER_SKIP}`);
