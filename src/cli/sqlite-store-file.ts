import { existsSync } from 'node:fs';
import { join } from 'node:path';
import BetterSqlite3, { type Database } from 'better-sqlite3';
import type { Config } from '../config/config.schema.js';
import { DATABASE_FILE } from '../controller.js';
import { CliError } from './cli-errors.js';

/** The SQLite store's file, for the commands that work on it directly (backup, restore, doctor). */
export function sqliteStoreFile(config: Config, command: string): string {
  const driver = config.storage.driver;
  if (driver !== 'sqlite') {
    throw new CliError(`${command} works on the SQLite store; storage.driver is ${driver} (use that database's own tools, e.g. pg_dump)`);
  }
  return join(config.server.data_dir, DATABASE_FILE);
}

/**
 * True while another process (a running memsvc) has the store open: in WAL mode every open
 * connection holds a shared lock, so an exclusive lock is refused at once.
 */
export function storeInUse(file: string): boolean {
  if (!existsSync(file)) return false;
  const db = new BetterSqlite3(file, { fileMustExist: true });
  try {
    db.pragma('busy_timeout = 0');
    db.pragma('locking_mode = EXCLUSIVE');
    db.exec('BEGIN EXCLUSIVE');
    db.exec('COMMIT');
    return false;
  } catch (error) {
    if ((error as { code?: string }).code?.startsWith('SQLITE_BUSY')) return true;
    throw error;
  } finally {
    db.close();
  }
}

/** Opens a file read-only and checks it is a memsvc store; returns it with its schema version. */
export function openStoreReadOnly(file: string): { db: Database; schemaVersion: number } {
  if (!existsSync(file)) throw new CliError(`${file} does not exist`);
  let db: Database;
  try {
    db = new BetterSqlite3(file, { readonly: true, fileMustExist: true });
    const version = db.prepare('SELECT max(version) FROM schema_migrations').pluck().get() as number | null;
    db.prepare('SELECT count(*) FROM conversations').pluck().get();
    return { db, schemaVersion: version ?? 0 };
  } catch (error) {
    throw new CliError(`${file} is not a memsvc store: ${(error as Error).message}`);
  }
}
