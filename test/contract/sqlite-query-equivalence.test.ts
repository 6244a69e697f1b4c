import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import BetterSqlite3, { type Database } from 'better-sqlite3';
import { newId } from '../../src/domain/ids.js';
import type { SearchFilter } from '../../src/domain/search.js';
import { searchFilterWhere } from '../../src/adapters/sql/filter-sql.js';
import { parseFullTextQuery } from '../../src/domain/full-text-query.js';
import { toFts5Match } from '../../src/adapters/sqlite/sqlite-fts-query.js';
import { DATABASE_FILE, openSqliteStorage } from '../../src/adapters/sqlite/sqlite-storage.js';
import { migrate, MIGRATIONS } from '../../src/adapters/sqlite/sqlite-migrations.js';
import { StatementCache } from '../../src/adapters/sqlite/sqlite-statements.js';
import { indexAppendedMessages } from '../../src/adapters/sqlite/sqlite-fts-index.js';
import { countEmbeddedMatching, EmbeddedMatchCounter } from '../../src/adapters/sqlite/sqlite-vector-count.js';
import type { Storage } from '../../src/ports/storage.js';
import type { ImportedConversation } from '../../src/ports/conversation-archive.js';

const T0 = Date.parse('2026-05-01T10:00:00.000Z');
const at = (minutes: number) => new Date(T0 + minutes * 60_000).toISOString();
const FOLDERS = ['/work', '/work/api', '/home', '/home/garden', '/travel'];
const APPEND_POLICY = { maxMessagesPerConversation: 50, sessionGapMs: 30 * 60_000 };

/** Closes a fixture's read-only handle and its storage, and removes its data dir. */
async function closeStore(db: Database, storage: Storage, dir: string): Promise<void> {
  db.close();
  await storage.close();
  rmSync(dir, { recursive: true, force: true });
}

const FILTERS: SearchFilter[] = [
  {}, { archived: false }, { archived: true }, { folder: '/work' }, { folder: '/home/garden' }, { label: 'l1' },
  { importanceMin: 8 }, { importanceMax: 3 }, { dateFrom: at(300) }, { dateTo: at(200) },
  { archived: false, excludedFolders: ['/work'] }, { archived: false, excludedFolders: ['/home', '/travel'] },
  { folder: '/nowhere' },
];

/**
 * The SQLite driver's cheaper forms of these reads give what the plain SQL gives, on a store with embedded,
 * pending and failed messages, archived conversations, several folders and timestamps that tie:
 * - the vector count a filtered search sizes its candidates by (counted without visiting message_vectors);
 * - the recent-message keys of context assembly (read along the timestamp index);
 * - the embedded total of /stats and /metrics;
 * - full-text ranking under a filter (ranked first, then filtered, with the joined query as fallback);
 * - the scope size scoped statistics weigh by (conversations' message counts summed, not messages counted).
 */
describe('sqlite: cheaper reads give the plain queries\' answers', () => {
  let dir: string;
  let storage: Storage;
  let db: Database;

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'memsvc-sqlite-equivalence-'));
    storage = openSqliteStorage(dir);
    for (let c = 0; c < 60; c += 1) {
      const conversation = await storage.conversations.create({
        id: newId(), label: `l${c % 4}`, folder: FOLDERS[c % FOLDERS.length]!, importanceScore: 1 + (c % 10),
        // Messages of a conversation share a timestamp in pairs, so ties are broken by key.
        messages: Array.from({ length: 1 + (c % 7) }, (_, i) => ({
          role: 'user' as const, content: `message ${c}.${i}`, timestamp: at(c * 7 + Math.floor(i / 2)),
        })),
        now: at(c * 7),
      }, APPEND_POLICY);
      if (c % 6 === 0) await storage.conversations.setStatusMany([conversation.id], 'archived', at(500));
    }
    await storage.embeddings.recordModel({ model: 'test-model', dimension: 2 });
    const pending = await storage.embeddings.claimPending(1000, 60_000);
    // Two thirds embedded, some failed, the rest left pending.
    const embedded = pending.filter((_, i) => i % 3 !== 0);
    await storage.embeddings.complete('test-model', embedded.map((m) => ({ key: m.key, vector: Float32Array.of(1, 0) })));
    await storage.embeddings.recordFailure(pending.filter((_, i) => i % 9 === 0).map((m) => m.key), 'refused', 1);
    db = new BetterSqlite3(join(dir, DATABASE_FILE), { readonly: true });
  });
  after(() => closeStore(db, storage, dir));

  test('the store has every embedding state the count must tell apart', () => {
    const states = db.prepare('SELECT embedding_status, count(*) AS n FROM messages GROUP BY 1').all() as Array<{ embedding_status: string; n: number }>;
    assert.deepEqual(states.map((s) => s.embedding_status).sort(), ['done', 'failed', 'pending']);
  });

  test('the embedded total (stats, metrics) equals the stored vectors', async () => {
    const vectors = db.prepare('SELECT count(*) FROM message_vectors').pluck().get() as number;
    assert.ok(vectors > 0);
    assert.equal((await storage.conversations.totals()).embeddedMessages, vectors);
  });

  test('embedded messages passing a filter, capped, equal the count over message_vectors', () => {
    const statements = new StatementCache(db);
    for (const filter of FILTERS) {
      const where = searchFilterWhere(filter);
      for (const limit of [1, 5, 17, 40, 100, 10_000]) {
        const plain = db.prepare(`SELECT count(*) FROM (SELECT 1 FROM message_vectors v
          JOIN messages m ON m.seq = v.message_seq JOIN conversations c ON c.id = m.conversation_id
          WHERE ${where.sql} LIMIT ?)`).pluck().get(...where.params, limit) as number;
        assert.equal(countEmbeddedMatching(statements, filter, limit), plain, `${JSON.stringify(filter)}, limit ${limit}`);
      }
    }
  });

  test('a filter of exclusions: the vectors minus what it excludes never exceed what it admits, and equal it without overlap', () => {
    const counter = new EmbeddedMatchCounter(db);
    const vectors = db.prepare('SELECT count(*) FROM message_vectors').pluck().get() as number;
    const admitted = (filter: SearchFilter) => {
      const where = searchFilterWhere(filter);
      return db.prepare(`SELECT count(*) FROM message_vectors v JOIN messages m ON m.seq = v.message_seq
        JOIN conversations c ON c.id = m.conversation_id WHERE ${where.sql}`).pluck().get(...where.params) as number;
    };
    for (const filter of FILTERS) {
      const excluded = counter.excluded(filter, 10_000);
      const exclusionsOnly = Object.entries(filter).every(([name, value]) => name === 'excludedFolders' || (name === 'archived' && value === false));
      if (!exclusionsOnly || Object.keys(filter).length === 0) {
        if (Object.keys(filter).length > 0) assert.equal(excluded, null, `${JSON.stringify(filter)} is not made of exclusions`);
        continue;
      }
      assert.notEqual(excluded, null, JSON.stringify(filter));
      assert.ok(vectors - excluded! <= admitted(filter), `${JSON.stringify(filter)}: ${vectors} - ${excluded} <= ${admitted(filter)}`);
    }
    // What vector search sizes its candidates by: past the cap, never more than the filter truly admits.
    for (const filter of FILTERS) {
      const truth = admitted(filter);
      const cap = 5;
      const estimate = counter.admitted(filter, cap, vectors);
      assert.ok(estimate <= truth, `${JSON.stringify(filter)}: ${estimate} <= ${truth}`);
      if (truth < cap) assert.equal(estimate, truth, `${JSON.stringify(filter)} below the cap is counted exactly`);
    }
    const broad = counter.admitted({ archived: false }, 5, vectors);
    assert.ok(broad > 5 && broad <= admitted({ archived: false }), `archived: false says more than its cap: ${broad}`);
    // Two folders that do not nest: nothing is counted twice, and only messages not embedded yet loosen the bound.
    const disjoint: SearchFilter = { excludedFolders: ['/home', '/travel'] };
    const pendingLeftOut = db.prepare(`SELECT count(*) FROM messages m JOIN conversations c ON c.id = m.conversation_id
      WHERE m.embedding_status != 'done' AND (c.folder = '/travel' OR c.folder LIKE '/home%')`).pluck().get() as number;
    assert.equal(vectors - counter.excluded(disjoint, 10_000)! + pendingLeftOut, admitted(disjoint));
  });

  test('a remembered count follows writes of this connection and of another one', async () => {
    const own = new BetterSqlite3(join(dir, DATABASE_FILE));
    try {
      const counter = new EmbeddedMatchCounter(own);
      const plain = (filter: SearchFilter) => {
        const where = searchFilterWhere(filter);
        return own.prepare(`SELECT count(*) FROM message_vectors v JOIN messages m ON m.seq = v.message_seq
          JOIN conversations c ON c.id = m.conversation_id WHERE ${where.sql}`).pluck().get(...where.params) as number;
      };
      const check = (why: string) => {
        for (const filter of FILTERS) assert.equal(counter.count(filter, 10_000), plain(filter), `${why}: ${JSON.stringify(filter)}`);
      };
      check('first count');
      check('remembered');
      // Another connection embeds the rest of the pending messages.
      const pending = await storage.embeddings.claimPending(1000, 60_000);
      assert.ok(pending.length > 0);
      await storage.embeddings.complete('test-model', pending.map((m) => ({ key: m.key, vector: Float32Array.of(0, 1) })));
      check('after another connection embedded messages');
      // This connection archives everything under /work.
      own.prepare(`UPDATE conversations SET status = 'archived' WHERE folder LIKE '/work%'`).run();
      check('after this connection archived conversations');
    } finally {
      own.close();
    }
  });

  test('recent message keys equal the plain join, newest first and ties by key', async () => {
    for (const filter of FILTERS) {
      const where = searchFilterWhere(filter);
      for (const [since, limit] of [[at(0), 1000], [at(150), 7], [at(300), 30], [at(1000), 5]] as const) {
        const plain = db.prepare(`SELECT m.seq FROM messages m JOIN conversations c ON c.id = m.conversation_id
          WHERE m.timestamp >= ? AND ${where.sql} ORDER BY m.timestamp DESC, m.seq LIMIT ?`)
          .pluck().all(since, ...where.params, limit) as number[];
        assert.deepEqual(await storage.context.recentMessageKeys(filter, since, limit), plain,
          `${JSON.stringify(filter)}, since ${since}, limit ${limit}`);
      }
    }
  });

  test('full-text ranking under every filter equals the joined query, ties by key', async () => {
    // "message" matches every message (scores tie on length); "3" a few; "message OR 5" mixes both.
    for (const text of ['message', '3', 'message OR 5']) {
      const query = parseFullTextQuery(text);
      const match = `content : (${toFts5Match(query)})`;
      for (const filter of FILTERS) {
        const where = searchFilterWhere(filter);
        for (const limit of [1, 5, 30, 1000]) {
          const plain = db.prepare(`SELECT f.rowid FROM messages_fts f JOIN messages m ON m.seq = f.rowid
            JOIN conversations c ON c.id = m.conversation_id WHERE messages_fts MATCH ? AND ${where.sql}
            ORDER BY bm25(messages_fts, 1.0, 0), f.rowid LIMIT ?`).pluck().all(match, ...where.params, limit) as number[];
          const ranked = (await storage.search.fullText(query, filter, limit)).map((item) => item.key);
          assert.deepEqual(ranked, plain, `${text}, ${JSON.stringify(filter)}, limit ${limit}`);
        }
      }
    }
  });

  test('a conversation-level filter\'s message count summed over conversations equals the messages counted', () => {
    for (const filter of FILTERS.filter((f) => f.dateFrom === undefined && f.dateTo === undefined)) {
      const where = searchFilterWhere(filter);
      const counted = db.prepare(`SELECT count(*) FROM messages m JOIN conversations c ON c.id = m.conversation_id WHERE ${where.sql}`)
        .pluck().get(...where.params);
      const summed = db.prepare(`SELECT coalesce(sum(c.message_count), 0) FROM conversations c WHERE ${where.sql}`).pluck().get(...where.params);
      assert.equal(summed, counted, JSON.stringify(filter));
    }
  });
});

/**
 * The embedding state counts (migration 5's triggers) behind the pending count of every search, /embeddings/status,
 * /stats and /metrics: after every kind of change they equal a count of the messages' states, and a store that
 * predates them starts from its true counts.
 */
describe('sqlite: the embedding state counts follow every change', () => {
  let dir: string;
  let storage: Storage;
  let db: Database;
  const plain = () => {
    const rows = db.prepare('SELECT embedding_status AS status, count(*) AS n FROM messages GROUP BY 1').all() as Array<{ status: string; n: number }>;
    const counts = { pending: 0, done: 0, failed: 0 };
    for (const row of rows) counts[row.status as keyof typeof counts] = row.n;
    return counts;
  };
  const check = async (why: string) => {
    const truth = plain();
    assert.deepEqual(await storage.embeddings.counts(), truth, why);
    assert.equal(await storage.embeddings.pendingCount(), truth.pending, why);
    assert.equal((await storage.conversations.totals()).embeddedMessages, truth.done, why);
  };
  const create = (c: number, messages: number) => storage.conversations.create({
    id: newId(), label: `l${c}`, folder: '/work', importanceScore: 5,
    messages: Array.from({ length: messages }, (_, i) => ({ role: 'user' as const, content: `message ${c}.${i}`, timestamp: at(c + i) })),
    now: at(c),
  }, APPEND_POLICY);

  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'memsvc-sqlite-counts-'));
    storage = openSqliteStorage(dir);
    db = new BetterSqlite3(join(dir, DATABASE_FILE), { readonly: true });
  });
  after(() => closeStore(db, storage, dir));

  test('creates, appends, completes, failures, deletes and a reset', async () => {
    await check('empty store');
    const first = await create(0, 6);
    const second = await create(10, 4);
    await storage.conversations.appendMessages(second.id, [{ role: 'assistant', content: 'appended' }], at(20),
      APPEND_POLICY);
    await check('created and appended');
    assert.equal(plain().pending, 11, 'positive control: the truth counts what was written');
    const imported = (id: string, messages: number): ImportedConversation => ({
      id, label: 'imported', folder: '/import', status: 'active', importanceScore: 5, wordCount: 0, sessionCount: 1,
      createdAt: at(30), updatedAt: at(30), lastAccessedAt: at(30), lastMessageAt: at(30),
      messages: Array.from({ length: messages }, (_, i) => ({ id: null, role: 'user' as const, name: null, content: `imported ${i}`, timestamp: at(30 + i), metadata: null })),
    });
    const importedId = newId();
    await storage.archive.importAll([imported(importedId, 3), imported(newId(), 0)], 'skip');
    await check('imported');
    await storage.archive.importAll([imported(importedId, 5)], 'skip');
    await check('import skipped');
    await storage.archive.importAll([imported(importedId, 2)], 'replace');
    await storage.archive.importAll([imported(importedId, 1)], 'new_id');
    await check('import replaced, and imported under a new id');
    assert.equal(plain().pending, 14, 'positive control: 11 + 2 replacing 3 + 1');
    await storage.embeddings.recordModel({ model: 'test-model', dimension: 2 });
    const pending = await storage.embeddings.claimPending(100, 60_000);
    await storage.embeddings.complete('test-model', pending.slice(0, 5).map((m) => ({ key: m.key, vector: Float32Array.of(1, 0) })));
    // Completing again (a retried batch) changes no state.
    await storage.embeddings.complete('test-model', pending.slice(0, 2).map((m) => ({ key: m.key, vector: Float32Array.of(0, 1) })));
    await check('completed');
    await storage.embeddings.recordFailure([pending[6]!.key, pending[7]!.key], 'refused', 1);
    await storage.embeddings.recordFailure([pending[8]!.key], 'refused', 3);
    await check('failed, and one failure short of its last attempt');
    // Deleting a conversation removes its messages by cascade.
    await storage.conversations.delete(first.id);
    await check('deleted');
    await storage.embeddings.resetAll();
    await check('reset');
    assert.deepEqual(plain(), { pending: 8, done: 0, failed: 0 }, '14 less the 6 of the deleted conversation');
  });

  test('a store from before the counts starts from its true counts', async () => {
    const old = join(dir, 'old.db');
    const raw = new BetterSqlite3(old);
    migrate(raw, MIGRATIONS.filter((migration) => migration.version < 5));
    raw.exec(`INSERT INTO conversations (id, label, created_at, updated_at, last_accessed_at) VALUES ('c', 'l', 'now', 'now', 'now')`);
    const insert = raw.prepare(`INSERT INTO messages (id, conversation_id, position, role, content, timestamp, embedding_status)
      VALUES (?, 'c', ?, 'user', 'text', 'now', ?)`);
    ['done', 'done', 'done', 'pending', 'pending', 'failed'].forEach((status, i) => insert.run(`m${i}`, i, status));
    migrate(raw);
    const counts = Object.fromEntries((raw.prepare('SELECT status, n FROM embedding_counts').all() as Array<{ status: string; n: number }>)
      .map((row) => [row.status, row.n]));
    assert.deepEqual(counts, { done: 3, pending: 2, failed: 1 });
    raw.close();
  });
});

/**
 * Pinned message keys (context assembly's filler) are read conversation by conversation, newest last message
 * first, stopping early: they equal the plain join's newest first, ties by key, when conversations' messages
 * interleave in time, arrive out of order, share timestamps, and some conversations are archived.
 */
describe('sqlite: pinned message keys give the plain join\'s answer', () => {
  let dir: string;
  let storage: Storage;
  let db: Database;

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'memsvc-sqlite-pinned-'));
    storage = openSqliteStorage(dir);
    for (let c = 0; c < 40; c += 1) {
      // Minutes cycle through a small range so conversations interleave and timestamps tie across them;
      // every fifth conversation has a message older than the one before it.
      const minutes = Array.from({ length: 1 + (c % 9) }, (_, i) => ((c * 13 + i * 7) % 50) + (c % 5 === 0 && i === 1 ? -30 : 0));
      const conversation = await storage.conversations.create({
        id: newId(), label: `l${c % 3}`, folder: FOLDERS[c % FOLDERS.length]!, importanceScore: 6 + (c % 5),
        messages: minutes.map((minute, i) => ({ role: 'user' as const, content: `pinned ${c}.${i}`, timestamp: at(minute) })),
        now: at(0),
      }, APPEND_POLICY);
      if (c % 7 === 3) await storage.conversations.setStatusMany([conversation.id], 'archived', at(60));
    }
    // Two pinned conversations without a recorded message time (as a store may hold from before the column was
    // kept): they must be read whatever the time of their messages.
    const writable = new BetterSqlite3(join(dir, DATABASE_FILE));
    const unset = writable.prepare(`UPDATE conversations SET last_message_at = NULL WHERE id IN (
      SELECT id FROM conversations WHERE importance_score = 10 AND status = 'active' ORDER BY last_message_at LIMIT 2)`).run();
    writable.close();
    assert.equal(unset.changes, 2);
    db = new BetterSqlite3(join(dir, DATABASE_FILE), { readonly: true });
  });
  after(() => closeStore(db, storage, dir));

  test('every filter, importance floor and limit', async () => {
    const filters: SearchFilter[] = [...FILTERS, { archived: false, dateFrom: at(10), dateTo: at(40) }];
    let compared = 0;
    for (const filter of filters) {
      const where = searchFilterWhere(filter);
      for (const minImportance of [10, 8, 6]) {
        for (const limit of [0, 1, 2, 3, 7, 20, 1000]) {
          const plain = db.prepare(`SELECT m.seq FROM conversations c JOIN messages m ON m.conversation_id = c.id
            WHERE c.importance_score >= ? AND ${where.sql} ORDER BY m.timestamp DESC, m.seq LIMIT ?`)
            .pluck().all(minImportance, ...where.params, limit) as number[];
          assert.deepEqual(await storage.context.pinnedMessageKeys(filter, minImportance, limit), plain,
            `${JSON.stringify(filter)}, importance >= ${minImportance}, limit ${limit}`);
          if (plain.length > 1) compared += 1;
        }
      }
    }
    assert.ok(compared > 50, `most cases compare more than one key (${compared})`);
    // The fixture does what it says: timestamps tie across conversations and a message is older than the one before it.
    const ties = db.prepare('SELECT count(*) FROM (SELECT timestamp FROM messages GROUP BY timestamp HAVING count(DISTINCT conversation_id) > 1)').pluck().get() as number;
    const outOfOrder = db.prepare(`SELECT count(*) FROM messages a JOIN messages b ON b.conversation_id = a.conversation_id
      AND b.position = a.position + 1 WHERE b.timestamp < a.timestamp`).pluck().get() as number;
    assert.ok(ties > 0 && outOfOrder > 0, `ties ${ties}, out of order ${outOfOrder}`);
  });
});

/**
 * Migration 6 rebuilds the full-text index with prefix doclists from the messages alone. A store indexed by
 * the append path before it (own words, and the neighbours' words as context) answers every word and prefix
 * query on either column as before, and as a store written after it; deletes still reach the index.
 */
describe('sqlite: the prefix-index migration keeps every full-text answer', () => {
  const WORDS = ['harbor', 'harvest', 'hammock', 'lantern', 'latitude', 'meadow', 'melody', 'orchard', 'orbit', 'thistle',
    'thunder', 'therapy', 'pottery', 'poetry', 'saddle'];
  let dir: string;
  let fresh: Storage;
  let migrated: Database;

  /** Every conversation written the same way into both stores: created, then appended to (a neighbour across the append). */
  async function fill(storage: Storage): Promise<void> {
    for (let c = 0; c < 12; c += 1) {
      const text = (i: number) => `${WORDS[(c * 3 + i) % WORDS.length]} ${WORDS[(c * 5 + i * 2) % WORDS.length]} note${c}x${i}`;
      const conversation = await storage.conversations.create({
        id: `00000000-0000-4000-8000-${String(c).padStart(12, '0')}`, label: `l${c}`, folder: '/work', importanceScore: 5,
        messages: Array.from({ length: 1 + (c % 4) }, (_, i) => ({ role: 'user' as const, content: text(i), timestamp: at(c + i) })),
        now: at(c),
      }, APPEND_POLICY);
      if (c % 3 !== 0) {
        await storage.conversations.appendMessages(conversation.id, [{ role: 'assistant', content: text(7) }], at(c + 9), APPEND_POLICY);
      }
    }
  }

  const QUERIES = [...WORDS, ...WORDS.map((word) => `${word.slice(0, 2)}*`), ...WORDS.map((word) => `${word.slice(0, 3)}*`),
    ...WORDS.map((word) => `${word.slice(0, 4)}*`), 'note1x0', 'note1*'];
  const answers = (db: Database) => QUERIES.flatMap((query) => ['content', 'context'].map((column) => {
    const match = `${column} : (${toFts5Match(parseFullTextQuery(query))})`;
    return { match, keys: db.prepare('SELECT rowid FROM messages_fts WHERE messages_fts MATCH ? ORDER BY rowid').pluck().all(match) };
  }));

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'memsvc-sqlite-prefix-'));
    fresh = openSqliteStorage(join(dir, 'fresh'));
    await fill(fresh);
    // The same writes, then the index as a store before migration 6 holds it: no prefix doclists, written by
    // the append path conversation by conversation.
    const old = openSqliteStorage(join(dir, 'old'));
    await fill(old);
    await old.close();
    migrated = new BetterSqlite3(join(dir, 'old', DATABASE_FILE));
    migrated.exec(`DROP TABLE messages_fts;
      CREATE VIRTUAL TABLE messages_fts USING fts5(content, context, content = '', contentless_delete = 1,
        tokenize = 'porter unicode61 remove_diacritics 2');
      DELETE FROM schema_migrations WHERE version = 6`);
    for (const id of migrated.prepare('SELECT id FROM conversations ORDER BY id').pluck().all() as string[]) {
      indexAppendedMessages(new StatementCache(migrated), id, 0);
    }
  });
  after(async () => {
    migrated.close();
    await fresh.close();
    rmSync(dir, { recursive: true, force: true });
  });

  test('word and prefix answers on content and context are those of the old index and of a new store', () => {
    const before = answers(migrated);
    // An operator is told which migration runs (it takes a while on a large store) and how long it took.
    const lines: Array<{ fields: Record<string, unknown>; message?: string }> = [];
    const record = (fields: object, message?: string) => { lines.push({ fields: fields as Record<string, unknown>, message }); };
    assert.equal(migrate(migrated, MIGRATIONS, { debug: record, info: record, warn: record, error: record }), 1);
    assert.deepEqual(lines.map((line) => [line.message, line.fields.version, line.fields.name]), [
      ['applying a schema migration', 6, 'full-text prefix index'],
      ['schema migration applied', 6, 'full-text prefix index'],
    ]);
    assert.equal(typeof lines[1]!.fields.ms, 'number');
    assert.match(migrated.prepare(`SELECT sql FROM sqlite_master WHERE name = 'messages_fts'`).pluck().get() as string,
      /prefix = '2 3'/);
    const settings = (db: Database) => Object.fromEntries((db.prepare(`SELECT k, v FROM messages_fts_config
      WHERE k IN ('automerge', 'crisismerge')`).all() as Array<{ k: string; v: number }>).map((row) => [row.k, row.v]));
    assert.deepEqual(settings(migrated), { automerge: 16, crisismerge: 64 });
    const after = answers(migrated);
    assert.deepEqual(after, before);
    const freshDb = new BetterSqlite3(join(dir, 'fresh', DATABASE_FILE), { readonly: true });
    try {
      assert.deepEqual(answers(freshDb), after);
      assert.deepEqual(settings(freshDb), { automerge: 16, crisismerge: 64 });
    } finally {
      freshDb.close();
    }
    // Positive controls: prefixes match several words, and some messages are found only by a neighbour's words.
    const keysOf = (match: string) => after.find((answer) => answer.match === match)!.keys;
    assert.ok(keysOf('content : ("th"*)').length > keysOf('content : ("thunder")').length);
    assert.ok(after.some((answer, i) => i % 2 === 1 && answer.keys.some((key) => !after[i - 1]!.keys.includes(key))));
  });

  test('deleting a conversation still removes its messages from the rebuilt index', () => {
    const match = `content : (${toFts5Match(parseFullTextQuery('note1*'))})`;
    const count = () => (migrated.prepare('SELECT count(*) FROM messages_fts WHERE messages_fts MATCH ?').pluck().get(match) as number);
    assert.ok(count() > 0);
    migrated.pragma('foreign_keys = ON');
    migrated.prepare(`DELETE FROM conversations WHERE label LIKE 'l1%'`).run();
    assert.equal(count(), 0);
  });
});
