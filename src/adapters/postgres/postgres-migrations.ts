import type pg from 'pg';

export interface PostgresMigration {
  version: number;
  name: string;
  sql: string;
}

/**
 * Append-only, like the SQLite ones. Text columns compared by range (folders,
 * ISO timestamps, labels) use the "C" collation: byte order, as SQLite's, so
 * folder subtrees and sorting behave the same on both drivers.
 */
export const POSTGRES_MIGRATIONS: readonly PostgresMigration[] = [
  {
    version: 1,
    name: 'conversations, messages, full text, summaries',
    sql: `
      CREATE TABLE conversations (
        id               text PRIMARY KEY,
        label            text COLLATE "C" NOT NULL,
        folder           text COLLATE "C" NOT NULL DEFAULT '/',
        status           text NOT NULL DEFAULT 'active' CHECK (status IN ('active', 'archived')),
        importance_score integer NOT NULL DEFAULT 5 CHECK (importance_score BETWEEN 1 AND 10),
        word_count       integer NOT NULL DEFAULT 0,
        message_count    integer NOT NULL DEFAULT 0,
        session_count    integer NOT NULL DEFAULT 1,
        created_at       text COLLATE "C" NOT NULL,
        updated_at       text COLLATE "C" NOT NULL,
        last_message_at  text COLLATE "C",
        last_accessed_at text COLLATE "C" NOT NULL
      );
      CREATE INDEX conversations_updated ON conversations (updated_at, id);
      CREATE INDEX conversations_created ON conversations (created_at, id);
      CREATE INDEX conversations_importance ON conversations (importance_score, id);
      CREATE INDEX conversations_label_updated ON conversations (label, updated_at, id);
      CREATE INDEX conversations_folder_updated ON conversations (folder, updated_at, id);
      CREATE INDEX conversations_status_updated ON conversations (status, updated_at, id);

      CREATE TABLE messages (
        seq                bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        id                 text NOT NULL UNIQUE,
        conversation_id    text NOT NULL REFERENCES conversations (id) ON DELETE CASCADE,
        position           integer NOT NULL,
        role               text NOT NULL CHECK (role IN ('user', 'assistant', 'system')),
        content            text NOT NULL,
        timestamp          text COLLATE "C" NOT NULL,
        -- JSON text as the client sent it (jsonb would reorder keys).
        metadata           text,
        embedding_id       text,
        embedding_status   text NOT NULL DEFAULT 'pending' CHECK (embedding_status IN ('pending', 'done', 'failed')),
        embedding_attempts integer NOT NULL DEFAULT 0,
        embedding_error    text,
        -- A replica's claim on the message's embedding job lapses at this instant.
        claimed_until      timestamptz,
        -- The message's own words (weight A) and its neighbours' words (weight B), English stemming.
        search_tsv         tsvector NOT NULL DEFAULT ''::tsvector,
        UNIQUE (conversation_id, position)
      );
      CREATE INDEX messages_embedding_open ON messages (embedding_status, seq) WHERE embedding_status <> 'done';
      CREATE INDEX messages_timestamp ON messages (timestamp);
      CREATE INDEX messages_search ON messages USING gin (search_tsv);

      CREATE TABLE service_state (key text PRIMARY KEY, value text NOT NULL);

      CREATE TABLE summaries (
        conversation_id text NOT NULL REFERENCES conversations (id) ON DELETE CASCADE,
        level           text NOT NULL CHECK (level IN ('daily', 'weekly', 'monthly')),
        source_hash     text NOT NULL,
        window_start    text COLLATE "C" NOT NULL,
        window_end      text COLLATE "C" NOT NULL,
        source_count    integer NOT NULL,
        summary         text NOT NULL,
        model           text NOT NULL,
        generated_at    text COLLATE "C" NOT NULL,
        PRIMARY KEY (conversation_id, level, source_hash)
      );
      CREATE INDEX summaries_recent ON summaries (conversation_id, level, generated_at DESC);
    `,
  },
  {
    version: 2,
    name: 'vectors (pgvector)',
    sql: `
      CREATE EXTENSION IF NOT EXISTS vector;
      -- The column takes its dimension, and gets its HNSW index, when the first model is
      -- recorded (postgres-embedding.queue.ts): pgvector indexes only fixed dimensions.
      CREATE TABLE message_vectors (
        message_seq bigint PRIMARY KEY REFERENCES messages (seq) ON DELETE CASCADE,
        model       text NOT NULL,
        embedding   vector NOT NULL
      );
    `,
  },
  {
    version: 3,
    name: 'embedding jobs apart from messages',
    sql: `
      -- A message row is written once: its embedding state lives in a job row that completion deletes, so the
      -- messages table and its indexes (the full text's GIN above all) no longer carry a dead version of every
      -- message per status change, which searches had to wade through.
      CREATE TABLE embedding_jobs (
        message_seq   bigint PRIMARY KEY REFERENCES messages (seq) ON DELETE CASCADE,
        attempts      integer NOT NULL DEFAULT 0,
        failed        boolean NOT NULL DEFAULT false,
        error         text,
        -- A replica's claim on the job lapses at this instant.
        claimed_until timestamptz
      );
      CREATE INDEX embedding_jobs_open ON embedding_jobs (message_seq) WHERE NOT failed;
      INSERT INTO embedding_jobs (message_seq, attempts, failed, error, claimed_until)
        SELECT seq, embedding_attempts, embedding_status = 'failed', embedding_error, claimed_until
        FROM messages WHERE embedding_status <> 'done';
      DROP INDEX messages_embedding_open;
      ALTER TABLE messages DROP COLUMN embedding_status, DROP COLUMN embedding_id, DROP COLUMN embedding_attempts,
        DROP COLUMN embedding_error, DROP COLUMN claimed_until;
    `,
  },
  {
    version: 4,
    name: 'vectors know their conversation, stored inline',
    sql: `
      -- A filtered vector search admits vectors by conversation while it walks the index, with no join first.
      -- Writing the column rewrites every vector: without its index, which a replica then builds again behind
      -- (postgres-vector-index.ts), rather than inserting every vector into the graph once more here.
      DROP INDEX IF EXISTS message_vectors_hnsw;
      DROP INDEX IF EXISTS message_vectors_hnsw_half;
      DROP INDEX IF EXISTS message_vectors_ivfflat;
      DROP INDEX IF EXISTS message_vectors_ivfflat_next;
      DELETE FROM service_state WHERE key = 'vector_index';
      ALTER TABLE message_vectors ADD COLUMN conversation_id text;
      -- Inline rather than TOASTed where it fits a page (a 768-dimension vector is 3 kB, above the 2 kB at which
      -- PostgreSQL moves values out of line): an exact scan then reads the row alone, not a TOAST lookup per vector.
      ALTER TABLE message_vectors ALTER COLUMN embedding SET STORAGE MAIN;
      ALTER TABLE message_vectors SET (toast_tuple_target = 8160);
      -- The cast makes each vector a new value, stored inline under the new settings.
      UPDATE message_vectors v SET conversation_id = m.conversation_id, embedding = v.embedding::real[]::vector
      FROM messages m WHERE m.seq = v.message_seq;
      ALTER TABLE message_vectors ALTER COLUMN conversation_id SET NOT NULL;
      CREATE INDEX message_vectors_conversation ON message_vectors (conversation_id);
    `,
  },
  {
    version: 5,
    name: 'API keys',
    sql: `
      -- Keys an admin made: the secret only as its SHA-256. A name is unique among keys that are not revoked.
      -- Timestamps as ISO text, like every other timestamp of this schema.
      CREATE TABLE api_keys (
        id text PRIMARY KEY,
        name text NOT NULL,
        grants jsonb NOT NULL,
        admin boolean NOT NULL DEFAULT false,
        requests_per_second double precision,
        burst integer,
        secret_hash text NOT NULL UNIQUE,
        created_at text NOT NULL,
        last_used_at text,
        revoked_at text
      );
      CREATE UNIQUE INDEX api_keys_active_name ON api_keys (name) WHERE revoked_at IS NULL;
    `,
  },
  {
    version: 6,
    name: 'message author names',
    sql: `
      -- Who wrote a message (OpenAI's chat message name), when the client says. A nullable column without a default
      -- is added without rewriting the table.
      ALTER TABLE messages ADD COLUMN name text;
    `,
  },
  {
    version: 7,
    name: 'the order vectors were stored in',
    sql: `
      -- Replicas that keep their own graph of the vectors (storage.vector_index: local) follow the vectors other
      -- replicas store by this number. Rows stored before it have none: a replica's start lists every key anyway.
      -- A nullable column, its default set afterwards, is added without rewriting the table.
      CREATE SEQUENCE message_vectors_added;
      ALTER TABLE message_vectors ADD COLUMN added bigint;
      ALTER TABLE message_vectors ALTER COLUMN added SET DEFAULT nextval('message_vectors_added');
      CREATE INDEX message_vectors_by_added ON message_vectors (added) WHERE added IS NOT NULL;
    `,
  },
  {
    version: 8,
    name: 'vectors removed, for replicas that keep their own graph',
    sql: `
      -- A vector that goes with its message (a conversation deleted, pruned, replaced by an import) is noted here, so
      -- that replicas keeping their own graph drop it too. Clearing every vector at once (a rebuild) sets
      -- memsvc.every_vector in its transaction and is not noted: the replicas start their graphs again instead.
      CREATE TABLE vector_removals (
        seq         bigserial PRIMARY KEY,
        message_seq bigint NOT NULL,
        removed_at  timestamptz NOT NULL DEFAULT now()
      );
      CREATE FUNCTION note_vector_removals() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        IF coalesce(current_setting('memsvc.every_vector', true), '') <> 'on' THEN
          INSERT INTO vector_removals (message_seq) SELECT message_seq FROM removed;
        END IF;
        RETURN NULL;
      END $$;
      CREATE TRIGGER message_vectors_removed AFTER DELETE ON message_vectors
        REFERENCING OLD TABLE AS removed FOR EACH STATEMENT EXECUTE FUNCTION note_vector_removals();
    `,
  },
];

/** Any fixed number: the advisory lock that lets one replica migrate while the others wait. */
const MIGRATION_LOCK = 7_436_001;

/**
 * Applies pending migrations once, even when several replicas start together.
 * Each migration runs in its own transaction holding a transaction-level
 * advisory lock, and checks again under the lock whether it was applied: the
 * others wait, then skip it. Transaction-level locks also hold behind
 * PgBouncer in transaction mode, where session locks would not.
 * `upTo` stops early (tests on a server without pgvector).
 */
export async function migratePostgres(pool: pg.Pool, options: { upTo?: number; migrations?: readonly PostgresMigration[] } = {}):
  Promise<number> {
  const migrations = [...(options.migrations ?? POSTGRES_MIGRATIONS)]
    .filter((migration) => migration.version <= (options.upTo ?? Infinity))
    .sort((a, b) => a.version - b.version);
  const client = await pool.connect();
  let count = 0;
  try {
    for (const migration of migrations) {
      await client.query('BEGIN');
      try {
        await client.query('SELECT pg_advisory_xact_lock($1)', [MIGRATION_LOCK]);
        await client.query(`CREATE TABLE IF NOT EXISTS schema_migrations (
          version integer PRIMARY KEY, name text NOT NULL, applied_at timestamptz NOT NULL DEFAULT now())`);
        const done = await client.query('SELECT 1 FROM schema_migrations WHERE version = $1', [migration.version]);
        if ((done.rowCount ?? 0) > 0) {
          await client.query('COMMIT');
          continue;
        }
        await client.query(migration.sql);
        await client.query('INSERT INTO schema_migrations (version, name) VALUES ($1, $2)', [migration.version, migration.name]);
        await client.query('COMMIT');
        count += 1;
      } catch (error) {
        await client.query('ROLLBACK').catch(() => {});
        throw new Error(`migration ${migration.version} (${migration.name}) failed: ${(error as Error).message}`);
      }
    }
    return count;
  } finally {
    client.release();
  }
}
