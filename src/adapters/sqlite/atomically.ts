import type { Database } from 'better-sqlite3';

/**
 * Runs `work` as one transaction, or as part of the transaction already open on this connection. better-sqlite3's
 * own `transaction()` nests as a SAVEPOINT, and a savepoint makes SQLite copy every page it changes into a
 * sub-journal and flush the full-text index into a segment of its own. Inside the writer thread's group commit
 * that bought nothing: if any write of a group throws, the whole group is rolled back and each write runs
 * again alone, in a transaction of its own. Storing 50,000 messages in groups of 8 conversations without the
 * savepoints: 158 rather than 222 µs of CPU and 12.3 rather than 15.5 KB written a message
 * (bench/NOTES.md, "Storing messages").
 *
 * So a caller that opens a transaction itself and catches an error from `work` must roll back on its own.
 */
export function atomically<T>(db: Database, work: () => T): T {
  return db.inTransaction ? work() : db.transaction(work)();
}
