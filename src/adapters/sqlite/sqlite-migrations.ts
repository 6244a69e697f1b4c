import type { Database } from 'better-sqlite3';
import type { Logger } from '../../ports/logger.js';

export interface Migration {
  version: number;
  name: string;
  sql: string;
}

/** Append-only: a released migration is never edited, a new one is added. */
export const MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    name: 'conversations and messages',
    sql: `
      CREATE TABLE conversations (
        id               TEXT PRIMARY KEY,
        label            TEXT NOT NULL,
        folder           TEXT NOT NULL DEFAULT '/',
        status           TEXT NOT NULL DEFAULT 'active' CHECK (status IN ('active', 'archived')),
        importance_score INTEGER NOT NULL DEFAULT 5 CHECK (importance_score BETWEEN 1 AND 10),
        word_count       INTEGER NOT NULL DEFAULT 0,
        message_count    INTEGER NOT NULL DEFAULT 0,
        session_count    INTEGER NOT NULL DEFAULT 1,
        created_at       TEXT NOT NULL,
        updated_at       TEXT NOT NULL,
        last_message_at  TEXT,
        last_accessed_at TEXT NOT NULL
      );
      CREATE INDEX conversations_updated ON conversations (updated_at DESC, id);
      CREATE INDEX conversations_created ON conversations (created_at DESC, id);
      CREATE INDEX conversations_folder ON conversations (folder);
      CREATE INDEX conversations_label ON conversations (label);
      CREATE INDEX conversations_status ON conversations (status, importance_score);

      CREATE TABLE messages (
        -- A stable integer key (unlike the implicit rowid, VACUUM never changes it): the
        -- full-text rowid and the vector key of the message.
        seq              INTEGER PRIMARY KEY,
        id               TEXT NOT NULL UNIQUE,
        conversation_id  TEXT NOT NULL REFERENCES conversations (id) ON DELETE CASCADE,
        position         INTEGER NOT NULL,
        role             TEXT NOT NULL CHECK (role IN ('user', 'assistant', 'system')),
        content          TEXT NOT NULL,
        timestamp        TEXT NOT NULL,
        metadata         TEXT,
        embedding_id     TEXT,
        embedding_status TEXT NOT NULL DEFAULT 'pending' CHECK (embedding_status IN ('pending', 'done', 'failed')),
        UNIQUE (conversation_id, position)
      );
      -- The embedding queue is the set of pending messages, written in the same
      -- transaction as the messages themselves, so no acknowledged message is lost.
      CREATE INDEX messages_embedding_pending ON messages (embedding_status, seq) WHERE embedding_status != 'done';
      CREATE INDEX messages_timestamp ON messages (timestamp);
    `,
  },
  {
    version: 2,
    name: 'full-text index, vectors and embedding state',
    sql: `
      -- Each message is indexed with its own words (content) and, weighted lower at query
      -- time, the words of the turns just before and after it (context): a short reply
      -- ("It taught me self-acceptance") is found by the words of the question it answers.
      -- Contentless: the text lives in messages and is never read back from here, so the
      -- index does not keep its own copy of every message and of its neighbours' text.
      CREATE VIRTUAL TABLE messages_fts USING fts5(
        content, context, content = '', contentless_delete = 1,
        tokenize = 'porter unicode61 remove_diacritics 2'
      );
      -- Rows are written by the adapter when messages are appended (sqlite-fts-index.ts).
      CREATE TRIGGER messages_fts_delete AFTER DELETE ON messages BEGIN
        DELETE FROM messages_fts WHERE rowid = old.seq;
      END;

      -- The source of truth for vectors: the approximate index is rebuilt from here.
      CREATE TABLE message_vectors (
        message_seq INTEGER PRIMARY KEY REFERENCES messages (seq) ON DELETE CASCADE,
        model       TEXT NOT NULL,
        vector      BLOB NOT NULL
      );
      ALTER TABLE messages ADD COLUMN embedding_attempts INTEGER NOT NULL DEFAULT 0;
      ALTER TABLE messages ADD COLUMN embedding_error TEXT;

      CREATE TABLE service_state (key TEXT PRIMARY KEY, value TEXT NOT NULL);
    `,
  },
  {
    version: 3,
    name: 'summaries',
    sql: `
      -- Content-addressed: a summary is keyed by a hash of exactly what it summarizes
      -- (the message keys of a daily window; the source hashes of the parts of a weekly
      -- or monthly one), so it is reused until that changes and never goes stale.
      CREATE TABLE summaries (
        conversation_id TEXT NOT NULL REFERENCES conversations (id) ON DELETE CASCADE,
        level           TEXT NOT NULL CHECK (level IN ('daily', 'weekly', 'monthly')),
        source_hash     TEXT NOT NULL,
        window_start    TEXT NOT NULL,
        window_end      TEXT NOT NULL,
        source_count    INTEGER NOT NULL,
        summary         TEXT NOT NULL,
        model           TEXT NOT NULL,
        generated_at    TEXT NOT NULL,
        PRIMARY KEY (conversation_id, level, source_hash)
      );
      CREATE INDEX summaries_recent ON summaries (conversation_id, level, generated_at DESC);
    `,
  },
  {
    version: 4,
    name: 'list indexes that serve both sort directions',
    sql: `
      -- (col, id) can be walked forwards or backwards, so ORDER BY col DESC, id DESC
      -- (the default list order) reads the index without a sort step.
      DROP INDEX IF EXISTS conversations_updated;
      DROP INDEX IF EXISTS conversations_created;
      CREATE INDEX conversations_updated ON conversations (updated_at, id);
      CREATE INDEX conversations_created ON conversations (created_at, id);
      CREATE INDEX conversations_importance ON conversations (importance_score, id);
      CREATE INDEX conversations_label_updated ON conversations (label, updated_at, id);
      CREATE INDEX conversations_folder_updated ON conversations (folder, updated_at, id);
      CREATE INDEX conversations_status_updated ON conversations (status, updated_at, id);
      DROP INDEX IF EXISTS conversations_label;
      DROP INDEX IF EXISTS conversations_folder;
    `,
  },
  {
    version: 5,
    name: 'embedding state counts',
    sql: `
      -- Messages in each embedding state, kept by triggers in the transaction of every change. Counting the
      -- pending index instead costs a walk of the whole queue: 100 ms a search or status read with 370,000
      -- messages waiting, which a bulk import makes the common case.
      CREATE TABLE embedding_counts (
        status TEXT PRIMARY KEY CHECK (status IN ('pending', 'done', 'failed')),
        n      INTEGER NOT NULL
      ) WITHOUT ROWID;
      INSERT INTO embedding_counts (status, n)
        SELECT 'pending', count(*) FROM messages WHERE embedding_status = 'pending' AND embedding_status != 'done'
        UNION ALL SELECT 'failed', count(*) FROM messages WHERE embedding_status = 'failed' AND embedding_status != 'done'
        UNION ALL SELECT 'done', (SELECT count(*) FROM messages)
          - (SELECT count(*) FROM messages WHERE embedding_status != 'done');
      CREATE TRIGGER embedding_counts_insert AFTER INSERT ON messages BEGIN
        UPDATE embedding_counts SET n = n + 1 WHERE status = new.embedding_status;
      END;
      CREATE TRIGGER embedding_counts_delete AFTER DELETE ON messages BEGIN
        UPDATE embedding_counts SET n = n - 1 WHERE status = old.embedding_status;
      END;
      CREATE TRIGGER embedding_counts_update AFTER UPDATE OF embedding_status ON messages
        WHEN old.embedding_status != new.embedding_status BEGIN
        UPDATE embedding_counts SET n = n - 1 WHERE status = old.embedding_status;
        UPDATE embedding_counts SET n = n + 1 WHERE status = new.embedding_status;
      END;
    `,
  },
  {
    version: 6,
    name: 'full-text prefix index',
    sql: `
      -- Prefixes of two and three characters get their own doclists, so "th*" or "mig*" reads one list
      -- instead of merging the lists of every word it covers (the* took 263 ms at 1,000,000 messages).
      -- Longer prefixes cover few words and merge cheaply. Rebuilt from the messages: each with its own
      -- words and its neighbours' (position - 1 and + 1), as sqlite-fts-index.ts writes them.
      DROP TABLE messages_fts;
      CREATE VIRTUAL TABLE messages_fts USING fts5(
        content, context, content = '', contentless_delete = 1,
        tokenize = 'porter unicode61 remove_diacritics 2', prefix = '2 3'
      );
      -- Merge segments 16 at a time rather than 4 (and only 64 rather than 16 force a merge in the writer):
      -- built from 1,000,000 messages, 72 rather than 92 µs of CPU a message, with no slower query
      -- (bench/NOTES.md, "Settled by probes since deleted").
      INSERT INTO messages_fts (messages_fts, rank) VALUES ('automerge', 16);
      INSERT INTO messages_fts (messages_fts, rank) VALUES ('crisismerge', 64);
      INSERT INTO messages_fts (rowid, content, context)
        SELECT m.seq, m.content, coalesce(prev.content || char(10) || next.content, prev.content, next.content, '')
        FROM messages m
        LEFT JOIN messages prev ON prev.conversation_id = m.conversation_id AND prev.position = m.position - 1
        LEFT JOIN messages next ON next.conversation_id = m.conversation_id AND next.position = m.position + 1
        ORDER BY m.seq;
    `,
  },
  {
    version: 7,
    name: 'vector keys index',
    sql: `
      -- The stored vectors' keys alone, for the index's catch-up after a start (every key, in order). A vector
      -- row fills most of a page, so reading the keys from the table read every page: 5.0 s on the request
      -- thread at 1,070,000 vectors, against 0.1-0.15 s from this index (about 10 bytes a key). Built once
      -- here: 7.7 s at that size.
      CREATE INDEX message_vectors_keys ON message_vectors (message_seq);
    `,
  },
  {
    version: 8,
    name: 'pinned conversations newest first',
    sql: `
      -- Context assembly's pinned recall reads pinned conversations (the top importance) newest first and stops
      -- once their messages fill its share (sqlite-context.reader.ts). Without an index in that order it read and
      -- sorted every pinned conversation at every assembly: 1,050 of them at a million messages.
      CREATE INDEX conversations_importance_newest ON conversations (importance_score, last_message_at);
    `,
  },
  {
    version: 9,
    name: 'new messages counted by their statements',
    sql: `
      -- New messages are counted as pending by the code that inserts them, one UPDATE a create, append or import
      -- (addPendingMessages in sqlite-embedding.queue.ts), not by a trigger a row: the trigger's sub-program took
      -- about 13 of a message's 80-95 µs on the writer (five runs each, alternating; bench/NOTES.md).
      -- Deletes and state changes keep their triggers.
      DROP TRIGGER embedding_counts_insert;
    `,
  },
  {
    version: 10,
    name: 'message deletions counted',
    sql: `
      -- Deleted messages, counted: a message key can be used again once the newest messages are deleted (seq is
      -- max + 1), so what a reader keeps in memory by key (key-conversations.ts) is good only while this is unchanged.
      CREATE TABLE message_deletions (id INTEGER PRIMARY KEY CHECK (id = 1), n INTEGER NOT NULL);
      INSERT INTO message_deletions (id, n) VALUES (1, 0);
      CREATE TRIGGER message_deletions_count AFTER DELETE ON messages BEGIN
        UPDATE message_deletions SET n = n + 1 WHERE id = 1;
      END;
    `,
  },
  {
    version: 11,
    name: 'API keys',
    sql: `
      -- Keys an admin made: the secret only as its SHA-256; grants as JSON [{folder, access}]. A name is unique among
      -- keys that are not revoked, so a revoked name can be used again.
      CREATE TABLE api_keys (
        id TEXT PRIMARY KEY,
        name TEXT NOT NULL,
        grants TEXT NOT NULL,
        admin INTEGER NOT NULL DEFAULT 0,
        requests_per_second REAL,
        burst INTEGER,
        secret_hash TEXT NOT NULL UNIQUE,
        created_at TEXT NOT NULL,
        last_used_at TEXT,
        revoked_at TEXT
      );
      CREATE UNIQUE INDEX api_keys_active_name ON api_keys (name) WHERE revoked_at IS NULL;
    `,
  },
  {
    version: 12,
    name: 'message author names',
    sql: `
      -- Who wrote a message (OpenAI's chat message name), when the client says: named-author ranking reads it before
      -- falling back to a "Name:" at the start of the content. Adding a nullable column rewrites no rows.
      ALTER TABLE messages ADD COLUMN name TEXT;
    `,
  },
];

/**
 * Applies the pending migrations in version order, each in its own transaction. With a logger, each is
 * reported before and after it runs: one that rebuilds an index takes a while on a large store (migration 6:
 * 48 s at 1,070,000 messages), and nothing else tells an operator why the service is not yet listening.
 */
export function migrate(db: Database, migrations: readonly Migration[] = MIGRATIONS, log?: Logger): number {
  db.exec(`CREATE TABLE IF NOT EXISTS schema_migrations (
    version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at TEXT NOT NULL)`);
  const applied = new Set(
    db.prepare('SELECT version FROM schema_migrations').pluck().all() as number[],
  );
  const record = db.prepare('INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, ?)');
  let count = 0;
  for (const migration of [...migrations].sort((a, b) => a.version - b.version)) {
    if (applied.has(migration.version)) continue;
    const about = { version: migration.version, name: migration.name };
    log?.info(about, 'applying a schema migration');
    const started = performance.now();
    db.transaction(() => {
      db.exec(migration.sql);
      record.run(migration.version, migration.name, new Date().toISOString());
    })();
    log?.info({ ...about, ms: Math.round(performance.now() - started) }, 'schema migration applied');
    count += 1;
  }
  return count;
}
