import type { Queryable } from './postgres-pool.js';

/** A text's words as the full text indexes them: English stemming. */
export const wordsOf = (text: string) => `to_tsvector('english', ${text})`;

/**
 * A message's full text: its own words (weight A) and its neighbours' words (weight B), as the SQLite driver's FTS5
 * columns. `own`, `previous` and `next` are SQL expressions of tsvectors (wordsOf; null for no neighbour): each
 * message's text is parsed once, not once more as each neighbour's context (a third of the parsing: 20,000 LoCoMo
 * messages 1.6 s -> 0.7 s on PostgreSQL 15). Concatenated tsvectors keep the order of positions that parsing the
 * neighbours' texts together gave, so ts_rank scores them alike (bench/NOTES.md, session 43).
 */
export const searchVector = (own: string, previous: string, next: string) =>
  `setweight(${own}, 'A') || setweight(coalesce(${previous}, ''::tsvector) || coalesce(${next}, ''::tsvector), 'B')`;

export interface NewMessageRow {
  id: string;
  position: number;
  role: string;
  name: string | null;
  content: string;
  timestamp: string;
  metadata: Record<string, unknown> | null;
}

/**
 * The CTEs (`input`, `earlier`, `inserted`, `jobs`) that insert messages appended to a conversation, positions
 * consecutive from the first one's, each with its full text and its embedding job: a message row is written once,
 * never updated after, so neither the table nor its indexes carry dead versions of it. Parameters are numbered from
 * `from`; the statement that holds the CTEs may add its own before them. `input` is MATERIALIZED so that each text is
 * parsed once (inlined, its words would be parsed again at each of their three uses); a stored message's own words
 * are the weight-A part of its full text (`ts_filter`).
 */
export function messageInsertCtes(conversationId: string, messages: readonly NewMessageRow[], from: number) {
  const $ = (n: number) => `$${from + n}`;
  return {
    sql: `
    input AS MATERIALIZED (
      SELECT *, ${wordsOf('content')} AS words FROM unnest(${$(0)}::text[], ${$(2)}::int[], ${$(3)}::text[], ${$(4)}::text[],
        ${$(5)}::text[], ${$(6)}::text[], ${$(8)}::text[]) AS i(id, position, role, content, timestamp, metadata, name)),
    earlier AS (SELECT ts_filter(search_tsv, '{a}') AS words FROM messages WHERE conversation_id = ${$(1)} AND position = ${$(7)} - 1),
    inserted AS (
      INSERT INTO messages (id, conversation_id, position, role, name, content, timestamp, metadata, search_tsv)
      SELECT id, ${$(1)}, position, role, name, content, timestamp, metadata,
        ${searchVector('words', 'coalesce(lag(words) OVER w, (SELECT words FROM earlier))', 'lead(words) OVER w')}
      FROM input WINDOW w AS (ORDER BY position)
      RETURNING seq),
    jobs AS (INSERT INTO embedding_jobs (message_seq) SELECT seq FROM inserted)`,
    params: [messages.map((m) => m.id), conversationId, messages.map((m) => m.position), messages.map((m) => m.role),
      messages.map((m) => m.content), messages.map((m) => m.timestamp),
      messages.map((m) => (m.metadata === null ? null : JSON.stringify(m.metadata))), messages[0]?.position ?? 0,
      messages.map((m) => m.name)],
  };
}

/**
 * Inserts messages appended to a conversation (messageInsertCtes) in one statement. The message before the first one
 * gained a next neighbour: its full text is written again (one row per append). Runs in the transaction that appends.
 */
export async function insertMessages(db: Queryable, conversationId: string, messages: readonly NewMessageRow[]): Promise<void> {
  if (messages.length === 0) return;
  const insert = messageInsertCtes(conversationId, messages, 1);
  await db.query(`WITH ${insert.sql} SELECT 1`, insert.params);
  const first = messages[0]!.position;
  if (first > 0) {
    await db.query(`
      UPDATE messages m SET search_tsv = ${searchVector("ts_filter(m.search_tsv, '{a}')", "ts_filter(p.search_tsv, '{a}')", wordsOf('$3::text'))}
      FROM messages m0 LEFT JOIN messages p ON p.conversation_id = m0.conversation_id AND p.position = m0.position - 1
      WHERE m.seq = m0.seq AND m0.conversation_id = $1 AND m0.position = $2`,
    [conversationId, first - 1, messages[0]!.content]);
  }
}
