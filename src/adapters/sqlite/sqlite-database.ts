import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import BetterSqlite3, { type Database } from 'better-sqlite3';
import { migrate, MIGRATIONS } from './sqlite-migrations.js';
import type { Logger } from '../../ports/logger.js';

export interface SqliteOpenOptions {
  /**
   * NORMAL (default): a commit survives a process crash; power loss may drop the last
   * commits but never corrupts. FULL: the WAL is fsynced at every commit, so it survives power loss too.
   */
  synchronous?: 'NORMAL' | 'FULL';
  /** Caps the database size (SQLite max_page_count); 0 or absent: no cap. A full database refuses writes with SQLITE_FULL. */
  maxSizeMb?: number;
  /** Where pending schema migrations are reported as they run. */
  log?: Logger;
}

/** Opens (creating if needed) the database file in WAL mode with foreign keys on, migrated. */
export function openSqliteDatabase(file: string, options: SqliteOpenOptions = {}): Database {
  if (file !== ':memory:') mkdirSync(dirname(file), { recursive: true });
  const db = openSqliteConnection(file, options);
  migrate(db, MIGRATIONS, options.log);
  // No ANALYZE/PRAGMA optimize: statistics taken while the FTS5 shadow tables are small make
  // FTS5's own lookups scan them, and inserts slow down as the index grows (measured: 10x at
  // 80,000 messages). The list queries are written to use the right indexes without statistics.
  return db;
}

/**
 * The request thread's connection: migrated, then refusing every write (PRAGMA query_only). Writes run on the
 * writer thread (sqlite-writer.ts); a store method missing from WRITE_METHODS then fails at its first call,
 * in tests, rather than taking the write lock from under the writer and waiting on it.
 */
export function openSqliteReader(file: string, options: SqliteOpenOptions = {}): Database {
  const db = openSqliteDatabase(file, options);
  db.pragma('query_only = ON');
  return db;
}

/**
 * One more connection to a database file: WAL, and the settings SQLite keeps per connection (durability, the
 * size cap, foreign keys, the busy wait), so every connection enforces them alike. Does not migrate.
 */
export function openSqliteConnection(file: string, options: Pick<SqliteOpenOptions, 'synchronous' | 'maxSizeMb'> = {}): Database {
  const db = new BetterSqlite3(file);
  db.pragma('journal_mode = WAL');
  db.pragma(`synchronous = ${options.synchronous === 'FULL' ? 'FULL' : 'NORMAL'}`);
  if (options.maxSizeMb) setMaxSize(db, options.maxSizeMb);
  db.pragma('foreign_keys = ON');
  db.pragma('busy_timeout = 5000');
  db.pragma('cache_size = -65536');
  // Checkpoint when the WAL holds 10,000 pages (about 40 MB) rather than SQLite's 1,000: each checkpoint
  // fsyncs twice, and at 1,000 pages the writer ran one every few dozen commits during a bulk ingest.
  // Storing 100,000 messages (bench/NOTES.md): 8,499-8,630 rather than 7,404-7,528 msgs/s.
  db.pragma('wal_autocheckpoint = 10000');
  return db;
}

/** Caps the file at about `megabytes` (never below what it holds already). */
export function setMaxSize(db: Database, megabytes: number): void {
  const pageSize = db.pragma('page_size', { simple: true }) as number;
  db.pragma(`max_page_count = ${Math.max(1, Math.floor((megabytes * 1024 * 1024) / pageSize))}`);
}
