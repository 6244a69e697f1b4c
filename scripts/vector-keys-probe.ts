/**
 * How long the vector index's catch-up takes to read every stored vector's key (issue 16, SQLite migration 7):
 * from the keys' own index, and from the message_vectors table whose rows hold the vectors. Reads only.
 *
 *   npx tsx scripts/vector-keys-probe.ts --data-dir <dir>/scale/store [--page 4096]
 */
import BetterSqlite3 from 'better-sqlite3';
import { SqliteEmbeddingQueue } from '../src/adapters/sqlite/sqlite-embedding.queue.js';
import { option } from './lib/probe-options.js';

const db = new BetterSqlite3(`${option('data-dir', '')}/memsvc.db`, { readonly: true });
db.pragma('cache_size = -65536');
const pageSize = Number(option('page', '4096'));

/** Every key, page by page, as the catch-up reads them. */
async function readAll(name: string, pages: AsyncIterable<number[]>): Promise<void> {
  const started = performance.now();
  let count = 0;
  for await (const keys of pages) count += keys.length;
  console.log(`${name}: ${count} keys in ${(performance.now() - started).toFixed(0)} ms`);
}

/** The same pages from the table's own rows, as before migration 7. */
async function* fromTable(): AsyncIterable<number[]> {
  const page = db.prepare(`SELECT message_seq FROM message_vectors NOT INDEXED
    WHERE message_seq > ? ORDER BY message_seq LIMIT ?`).pluck();
  for (let after = -1; ;) {
    const keys = page.all(after, pageSize) as number[];
    if (keys.length === 0) return;
    yield keys;
    after = keys[keys.length - 1]!;
  }
}

const indexed = db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'index' AND name = 'message_vectors_keys'").get() !== undefined;
for (let round = 1; round <= 2; round += 1) {
  if (indexed) await readAll(`round ${round}, keys index`, new SqliteEmbeddingQueue(db).vectorKeys(pageSize));
  await readAll(`round ${round}, table`, fromTable());
}
