import type { Queryable } from './postgres-pool.js';

/**
 * Indexes the messages of a conversation from `firstPosition` on, and the one
 * before it (it gained a next neighbour): each with its own words (weight A)
 * and its neighbours' words (weight B), as the SQLite driver's FTS5 columns.
 * Runs in the transaction that inserted them, so the index is never behind.
 */
export async function indexAppendedMessages(db: Queryable, conversationId: string, firstPosition: number): Promise<void> {
  await indexMessages(db, [conversationId], Math.max(0, firstPosition - 1));
}

/** Indexes the messages at or after `fromPosition` of every conversation given (copies index whole conversations). */
export async function indexMessages(db: Queryable, conversationIds: readonly string[], fromPosition = 0): Promise<void> {
  await db.query(`
    UPDATE messages m SET search_tsv =
      setweight(to_tsvector('english', m.content), 'A') ||
      setweight(to_tsvector('english', coalesce(p.content, '') || E'\\n' || coalesce(n.content, '')), 'B')
    FROM messages m0
    LEFT JOIN messages p ON p.conversation_id = m0.conversation_id AND p.position = m0.position - 1
    LEFT JOIN messages n ON n.conversation_id = m0.conversation_id AND n.position = m0.position + 1
    WHERE m.seq = m0.seq AND m0.conversation_id = ANY($1::text[]) AND m0.position >= $2`,
  [conversationIds, fromPosition]);
}

/** Inserts messages in one statement (arrays unnested), in order. */
export async function insertMessages(db: Queryable, conversationId: string, messages: ReadonlyArray<{
  id: string; position: number; role: string; content: string; timestamp: string; metadata: Record<string, unknown> | null;
}>): Promise<void> {
  if (messages.length === 0) return;
  await db.query(`
    INSERT INTO messages (id, conversation_id, position, role, content, timestamp, metadata)
    SELECT id, $2, position, role, content, timestamp, metadata
    FROM unnest($1::text[], $3::int[], $4::text[], $5::text[], $6::text[], $7::text[])
      AS input(id, position, role, content, timestamp, metadata)`,
  [messages.map((m) => m.id), conversationId, messages.map((m) => m.position), messages.map((m) => m.role),
    messages.map((m) => m.content), messages.map((m) => m.timestamp),
    messages.map((m) => (m.metadata === null ? null : JSON.stringify(m.metadata)))]);
}
