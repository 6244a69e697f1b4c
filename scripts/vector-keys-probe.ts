/**
 * How long the vector index's catch-up takes to read every stored vector's key (issue 16, SQLite migration 7):
 * from the keys' own index, and from the message_vectors table whose rows hold the vectors. Reads only.
 *
 *   npx tsx scripts/vector-keys-probe.ts --data-dir <dir>/scale/store [--page 4096]
 */
import BetterSqlite3 from 'better-sqlite3';
import { option } from './lib/probe-options.js';

const db = new BetterSqlite3(`${option('data-dir', '')}/memsvc.db`, { readonly: true });
db.pragma('cache_size = -65536');
const pageSize = Number(option('page', '4096'));

function readAll(name: string, sql: string): void {
  const page = db.prepare(sql).pluck();
  const started = performance.now();
  let after = -1;
  let count = 0;
  for (;;) {
    const keys = page.all(after, pageSize) as number[];
    if (keys.length === 0) break;
    after = keys[keys.length - 1]!;
    count += keys.length;
  }
  console.log(`${name}: ${count} keys in ${(performance.now() - started).toFixed(0)} ms`);
}

const indexed = db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'index' AND name = 'message_vectors_keys'").get() !== undefined;
for (let round = 1; round <= 2; round += 1) {
  if (indexed) {
    readAll(`round ${round}, keys index`, `SELECT message_seq FROM message_vectors INDEXED BY message_vectors_keys
      WHERE message_seq > ? ORDER BY message_seq LIMIT ?`);
  }
  readAll(`round ${round}, table`, `SELECT message_seq FROM message_vectors NOT INDEXED
    WHERE message_seq > ? ORDER BY message_seq LIMIT ?`);
}
