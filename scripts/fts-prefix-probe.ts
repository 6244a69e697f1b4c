/**
 * Full-text prefix queries at up to 1,000,000 messages without a service (issue 16): builds messages_fts as
 * the store does (contentless, porter, content and neighbours' context) from the bench corpus, once per
 * --prefixes entry, and prints the insert CPU a message (10 messages a transaction, as a conversation POST
 * writes them), the index's size, and the latency of the service's own full-text path
 * (SqliteMessageSearch.fullText) for prefix, word and phrase queries.
 *
 *   npx tsx scripts/fts-prefix-probe.ts --messages 1000000 --prefixes none,3,2+3
 *
 * A --prefixes entry is `none` or FTS5 prefix lengths joined by `+` (`2+3` is prefix = '2 3'). --merge sets FTS5
 * merge options for every build (`--merge automerge=8,crisismerge=32`).
 */
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import { generateConversation } from '../bench/lib/corpus.js';
import { parseFullTextQuery } from '../src/domain/full-text-query.js';
import { SqliteMessageSearch } from '../src/adapters/sqlite/sqlite-message-search.js';
import { FTS_TOKENIZER, toContextColumn } from '../src/features/search/fts-query.js';
import { option } from './lib/probe-options.js';

const size = Number(option('messages', '200000'));
const variants = option('prefixes', 'none,3').split(',');
const rounds = Number(option('rounds', '5'));
/** --merge automerge=8,crisismerge=32: FTS5 merge settings applied to every build (FTS5's defaults otherwise). */
const merging = option('merge', '').split(',').filter(Boolean).map((pair) => pair.split('=') as [string, string])
  .map(([setting, value]) => [setting, Number(value)] as const);
const QUERIES = ['the*', 'and*', 'you*', 'mig*', 'que*', 'th*', 'de*', 'migr*', 'conn*', 'migration OR query',
  '"the migration"', 'the'];

const cpuUs = (since: NodeJS.CpuUsage) => { const used = process.cpuUsage(since); return used.user + used.system; };
const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))]!;

function build(file: string, prefixes: string): { insertUs: number; bytes: number } {
  const db = new BetterSqlite3(file);
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  const prefixOption = prefixes === 'none' ? '' : `, prefix = '${prefixes.split('+').join(' ')}'`;
  db.exec(`CREATE VIRTUAL TABLE messages_fts USING fts5(content, context, content = '', contentless_delete = 1,
    tokenize = '${FTS_TOKENIZER}'${prefixOption})`);
  // Inlined: FTS5 refuses a merge setting bound as a REAL, which better-sqlite3 makes of every JS number.
  for (const [setting, value] of merging) db.exec(`INSERT INTO messages_fts (messages_fts, rank) VALUES ('${setting}', ${value})`);
  // The store's filters join these; the probe's queries have none, but the statements must compile.
  db.exec(`CREATE TABLE conversations (id TEXT PRIMARY KEY, folder TEXT, status TEXT, importance_score INTEGER,
    label TEXT, created_at TEXT, updated_at TEXT, last_message_at TEXT);
    CREATE TABLE messages (seq INTEGER PRIMARY KEY, conversation_id TEXT, timestamp TEXT, role TEXT)`);
  const write = db.prepare('INSERT INTO messages_fts (rowid, content, context) VALUES (?, ?, ?)');
  const message = db.prepare('INSERT INTO messages (seq) VALUES (?)');
  const conversation = db.transaction((texts: string[], firstKey: number) => {
    texts.forEach((text, i) => {
      message.run(firstKey + i);
      write.run(firstKey + i, text, toContextColumn(texts[i - 1], texts[i + 1]));
    });
  });
  let key = 1;
  let spent = 0;
  for (let c = 0; key <= size; c += 1) {
    const texts = generateConversation(c, { seed: 42, messagesPerConversation: 10 }).messages.map((m) => m.content)
      .slice(0, size - key + 1);
    const cpu0 = process.cpuUsage();
    conversation(texts, key);
    spent += cpuUs(cpu0);
    key += texts.length;
  }
  db.pragma('wal_checkpoint(TRUNCATE)');
  db.close();
  return { insertUs: spent / size, bytes: statSync(file).size };
}

async function queryTimes(file: string): Promise<Array<{ query: string; p50: number; p95: number; found: number }>> {
  const db = new BetterSqlite3(file, { readonly: true });
  const search = new SqliteMessageSearch(db);
  const rows = [];
  for (const text of QUERIES) {
    const query = parseFullTextQuery(text);
    const times: number[] = [];
    let found = 0;
    for (let round = 0; round < rounds; round += 1) {
      const t0 = performance.now();
      found = (await search.fullText(query, {}, 10)).length;
      times.push(performance.now() - t0);
    }
    times.sort((a, b) => a - b);
    rows.push({ query: text, p50: percentile(times, 0.5), p95: percentile(times, 0.95), found });
  }
  db.close();
  return rows;
}

const dir = mkdtempSync(join(tmpdir(), 'fts-prefix-'));
try {
  for (const prefixes of variants) {
    const file = join(dir, `${prefixes}.db`);
    const started = performance.now();
    const { insertUs, bytes } = build(file, prefixes);
    console.log(`prefix ${prefixes}: ${size} messages, insert ${insertUs.toFixed(0)} µs CPU a message, ` +
      `${(bytes / 2 ** 20).toFixed(0)} MiB, built in ${((performance.now() - started) / 1000).toFixed(1)} s`);
    for (const row of await queryTimes(file)) {
      console.log(`  ${row.query.padEnd(22)} p50 ${row.p50.toFixed(2)} ms, p95 ${row.p95.toFixed(2)} ms (${row.found} results)`);
    }
    rmSync(file, { force: true });
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
