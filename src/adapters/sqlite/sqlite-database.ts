import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import BetterSqlite3, { type Database } from 'better-sqlite3';
import { migrate } from './sqlite-migrations.js';

/** Opens (creating if needed) the database file in WAL mode with foreign keys on, migrated. */
export function openSqliteDatabase(file: string): Database {
  if (file !== ':memory:') mkdirSync(dirname(file), { recursive: true });
  const db = new BetterSqlite3(file);
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  db.pragma('foreign_keys = ON');
  db.pragma('busy_timeout = 5000');
  db.pragma('cache_size = -65536');
  migrate(db);
  // No ANALYZE/PRAGMA optimize: statistics taken while the FTS5 shadow tables are small make
  // FTS5's own lookups scan them, and inserts slow down as the index grows (measured: 10x at
  // 80,000 messages). The list queries are written to use the right indexes without statistics.
  return db;
}
