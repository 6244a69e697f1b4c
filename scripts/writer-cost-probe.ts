/**
 * What the writer thread spends a message on (issue 16), on one connection without threads or HTTP: storing the
 * bench corpus's 10-message conversations through SqliteConversationStore.create with --groups conversations a
 * transaction (the writer's group commit holds the creates that arrive together), then completing every
 * message's embedding (claim 64 pending, store their vectors and mark them done) as the pipeline does.
 * Prints CPU a message for each, the first with and without the full-text index's own statements.
 *
 *   npx tsx scripts/writer-cost-probe.ts --conversations 10000 --groups 1,8,32
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Database } from 'better-sqlite3';
import { openSqliteDatabase } from '../src/adapters/sqlite/sqlite-database.js';
import { SqliteConversationStore } from '../src/adapters/sqlite/sqlite-conversation.store.js';
import { SqliteEmbeddingQueue } from '../src/adapters/sqlite/sqlite-embedding.queue.js';
import type { NewConversation } from '../src/ports/conversation-store.js';
import { newId } from '../src/domain/ids.js';
import { generateConversation } from '../bench/lib/corpus.js';
import { option } from './lib/probe-options.js';

const conversations = Number(option('conversations', '10000'));
const groups = option('groups', '1,8,32').split(',').map(Number);
const EMBEDDING_BATCH = 64;
const DIMENSION = 768;
const policy = { maxMessagesPerConversation: 10_000, sessionGapMs: 30 * 60_000 };
const now = new Date().toISOString();
const inputs: NewConversation[] = Array.from({ length: conversations }, (_, i) => {
  const generated = generateConversation(i, { seed: 42, messagesPerConversation: 10 });
  return {
    id: newId(), label: generated.label, folder: generated.folder, importanceScore: generated.importance_score, now,
    messages: generated.messages.map((m) => ({ role: m.role, content: m.content, timestamp: now, metadata: null })),
  };
});
const messages = conversations * 10;
const cpuUs = () => { const used = process.cpuUsage(); return used.user + used.system; };

/** Creates every conversation (each run into a store of its own), `group` to a transaction; CPU µs a message. */
async function store(db: Database, group: number): Promise<number> {
  const conversationsStore = new SqliteConversationStore(db, 'probe');
  const started = cpuUs();
  for (let i = 0; i < inputs.length; i += group) {
    db.exec('BEGIN');
    for (const input of inputs.slice(i, i + group)) await conversationsStore.create(input, policy);
    db.exec('COMMIT');
  }
  return (cpuUs() - started) / messages;
}

/** Completes every pending message's embedding in the pipeline's batches; CPU µs a message. */
async function completeEmbeddings(db: Database): Promise<number> {
  const queue = new SqliteEmbeddingQueue(db);
  const vector = new Float32Array(DIMENSION).map((_, i) => Math.sin(i));
  const started = cpuUs();
  let done = 0;
  for (;;) {
    const pending = await queue.claimPending(EMBEDDING_BATCH, 0);
    if (pending.length === 0) break;
    await queue.complete('probe', pending.map((item) => ({ key: item.key, vector })));
    done += pending.length;
  }
  return (cpuUs() - started) / Math.max(1, done);
}

for (const withFullText of [true, false]) {
  for (const group of groups) {
    const dir = mkdtempSync(join(tmpdir(), 'memsvc-writer-cost-'));
    const db = openSqliteDatabase(join(dir, 'memsvc.db'));
    // Without the full-text index: its statements become no-ops (the probe's store is thrown away).
    if (!withFullText) db.exec(`DROP TABLE messages_fts; CREATE TABLE messages_fts (rowid INTEGER PRIMARY KEY, content, context);
      CREATE TRIGGER messages_fts_discard AFTER INSERT ON messages_fts BEGIN DELETE FROM messages_fts WHERE rowid = new.rowid; END`);
    const storeUs = await store(db, group);
    const completeUs = withFullText ? await completeEmbeddings(db) : undefined;
    console.log(`${withFullText ? 'with full text   ' : 'without full text'} ${group} conversations a transaction: ` +
      `store ${storeUs.toFixed(1)} µs a message` + (completeUs === undefined ? '' : `; embeddings completed ${completeUs.toFixed(1)} µs a message`));
    db.close();
    rmSync(dir, { recursive: true, force: true });
  }
}
