import { existsSync } from 'node:fs';
import { join } from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import { MIGRATIONS } from '../../adapters/sqlite/sqlite-migrations.js';
import type { Config } from '../../config/config.schema.js';
import { openSqliteDatabase } from '../../adapters/sqlite/sqlite-database.js';
import { DATABASE_FILE } from '../../controller.js';
import { CliError } from '../cli-errors.js';
import { migratePostgres } from '../../adapters/postgres/postgres-migrations.js';
import { createPool } from '../../adapters/postgres/postgres-pool.js';

export interface MigrationReport { driver: string; location: string; applied: number; version: number }

/** Brings one storage driver's schema up to date. */
type Migrator = (config: Config) => Promise<MigrationReport>;

const migrateSqlite: Migrator = async (config) => {
  const file = join(config.server.data_dir, DATABASE_FILE);
  // Counted before opening: opening the store applies what is pending.
  const pending = existsSync(file) ? pendingSqliteMigrations(file) : MIGRATIONS.length;
  const db = openSqliteDatabase(file);
  try {
    const version = db.prepare('SELECT max(version) FROM schema_migrations').pluck().get() as number;
    return { driver: 'sqlite', location: file, applied: pending, version };
  } finally {
    db.close();
  }
};

function pendingSqliteMigrations(file: string): number {
  const db = new BetterSqlite3(file, { readonly: true, fileMustExist: true });
  try {
    const known = db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'schema_migrations'").get();
    const applied = new Set(known ? db.prepare('SELECT version FROM schema_migrations').pluck().all() as number[] : []);
    return MIGRATIONS.filter((migration) => !applied.has(migration.version)).length;
  } finally {
    db.close();
  }
}

const migratePostgresStore: Migrator = async (config) => {
  const pool = createPool(config.storage.url, 1);
  try {
    const applied = await migratePostgres(pool);
    const { rows } = await pool.query<{ version: number }>('SELECT max(version) AS version FROM schema_migrations');
    return { driver: 'postgres', location: config.storage.url.replace(/\/\/[^@/]*@/, '//'), applied, version: rows[0]!.version };
  } finally {
    await pool.end();
  }
};

/** One migrator per storage driver; a driver registers its own here. */
export const MIGRATORS: Record<string, Migrator> = { sqlite: migrateSqlite, postgres: migratePostgresStore };

/** `memsvc migrate`: applies the configured store's pending schema migrations. */
export async function migrateStore(config: Config): Promise<string> {
  const driver = config.storage.driver;
  const migrator = MIGRATORS[driver];
  if (!migrator) throw new CliError(`no schema migrations for storage driver ${driver}`);
  const report = await migrator(config);
  return `${report.driver} store ${report.location}: ${report.applied === 0 ? 'already up to date' : `${report.applied} migrations applied`}` +
    `, schema version ${report.version}\n`;
}
