/**
 * Context assembly's pinned recall on a store: the newest `--limit` messages of the pinned conversations (the top
 * importance) that are not archived, as SqliteContextReader reads them, timed over `--rounds` after a warm-up. Opens
 * the store read-only after migrating it (so the indexes the reader expects exist).
 *
 *   npx tsx scripts/pinned-recall-probe.ts --data-dir <store> [--limit 500] [--rounds 50]
 */
import { join } from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import { PINNED_IMPORTANCE } from '../src/domain/conversation.js';
import { SqliteContextReader } from '../src/adapters/sqlite/sqlite-context.reader.js';
import { migrate } from '../src/adapters/sqlite/sqlite-migrations.js';
import { option } from './lib/probe-options.js';

const file = join(option('data-dir', ''), 'memsvc.db');
const limit = Number(option('limit', '500'));
const rounds = Number(option('rounds', '50'));
const writable = new BetterSqlite3(file);
migrate(writable);
writable.close();
const db = new BetterSqlite3(file, { readonly: true });
const pinned = db.prepare("SELECT count(*) FROM conversations WHERE importance_score >= ? AND status != 'archived'").pluck().get(PINNED_IMPORTANCE) as number;
const reader = new SqliteContextReader(db);
const filter = { archived: false };
const first = await reader.pinnedMessageKeys(filter, PINNED_IMPORTANCE, limit);
const times: number[] = [];
for (let round = 0; round < rounds; round += 1) {
  const t0 = performance.now();
  await reader.pinnedMessageKeys(filter, PINNED_IMPORTANCE, limit);
  times.push(performance.now() - t0);
}
times.sort((a, b) => a - b);
console.log(`${pinned} pinned conversations; ${first.length} keys (limit ${limit}): p50 ${times[rounds >> 1]!.toFixed(2)} ms, ` +
  `p95 ${times[Math.floor(rounds * 0.95)]!.toFixed(2)} ms over ${rounds} rounds`);
db.close();
