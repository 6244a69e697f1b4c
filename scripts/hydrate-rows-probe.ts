/**
 * Reading search hits as better-sqlite3 row objects or as arrays (raw()) mapped to one literal: the hits of a
 * context assembly at a million messages are about 1,260 (500 newest messages, the rest spread over the store).
 * Passes alternate between the two ways over the same keys, after a first pass that warms the page cache.
 *
 *   npx tsx scripts/hydrate-rows-probe.ts --data-dir <store> [--keys 1260] [--passes 6]
 */
import { join } from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import type { MessageHit } from '../src/domain/search.js';
import { HIT_COLUMNS, hitFromColumns, type HitColumns } from '../src/adapters/sql/rows.js';
import { option } from './lib/probe-options.js';

const db = new BetterSqlite3(join(option('data-dir', ''), 'memsvc.db'), { readonly: true });
const count = Number(option('keys', '1260'));
const passes = Number(option('passes', '6'));
const newest = db.prepare('SELECT max(seq) FROM messages').pluck().get() as number;

/** Round r's keys: the 500 newest (shifted a little each round) and the rest spread over the store. */
function keysOf(round: number): string {
  const keys = new Set<number>();
  for (let i = 0; i < Math.min(500, count); i += 1) keys.add(newest - 3000 - round * 7 - i);
  let state = 12345 + round;
  while (keys.size < count) {
    state = (state * 1103515245 + 12345) % 2147483648;
    keys.add(1 + (state % newest));
  }
  return JSON.stringify([...keys].sort((a, b) => a - b));
}

/** The way hits were read before: a row object per hit, mapped field by field (the baseline, kept only here). */
type HitRow = Record<'seq' | 'importance_score' | 'position', number> & Record<'id' | 'conversation_id' | 'content' | 'timestamp' | 'label' | 'folder', string>
  & { role: MessageHit['role']; status: MessageHit['status']; embedding_id: string | null; metadata: string | null };
const fromObject = (row: HitRow): MessageHit => ({
  key: row.seq, messageId: row.id, conversationId: row.conversation_id, role: row.role, content: row.content,
  timestamp: row.timestamp, embeddingId: row.embedding_id,
  metadata: row.metadata === null ? null : (JSON.parse(row.metadata) as Record<string, unknown>),
  label: row.label, folder: row.folder, importanceScore: row.importance_score, status: row.status, position: row.position,
});

const sql = `SELECT ${HIT_COLUMNS} FROM messages m JOIN conversations c ON c.id = m.conversation_id
  WHERE m.seq IN (SELECT value FROM json_each(?))`;
const asObjects = db.prepare(sql);
const asArrays = db.prepare(sql).raw();
const ways: Record<string, (keys: string) => unknown[]> = {
  'row objects': (keys) => (asObjects.all(keys) as HitRow[]).map(fromObject),
  'arrays mapped': (keys) => (asArrays.all(keys) as HitColumns[]).map(hitFromColumns),
};
const rounds = 40;
for (let round = 0; round < rounds; round += 1) asArrays.all(keysOf(round));
for (let pass = 0; pass < passes; pass += 1) {
  for (const [name, read] of Object.entries(ways)) {
    const times: number[] = [];
    for (let round = 0; round < rounds; round += 1) {
      const keys = keysOf(round);
      const t0 = performance.now();
      read(keys);
      times.push(performance.now() - t0);
    }
    times.sort((a, b) => a - b);
    console.log(`pass ${pass} ${name.padEnd(14)} ${count} hits: p50 ${times[rounds >> 1]!.toFixed(2)} ms, p90 ${times[Math.floor(rounds * 0.9)]!.toFixed(2)} ms`);
  }
}
db.close();
