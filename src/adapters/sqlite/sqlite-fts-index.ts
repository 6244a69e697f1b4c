import type { StatementCache } from './sqlite-statements.js';

/**
 * Indexes messages just appended to a conversation (positions >= firstPosition)
 * in messages_fts: each with its own words (content) and its neighbours' words
 * (context). Called in the transaction that inserted them, so the index is never
 * behind the messages. One FTS write per new message, plus one for the message
 * that was last before (it gained a next neighbour): per-row triggers cost three.
 * Positions below firstPosition - 1 are read only as that message's neighbour.
 */
export function indexAppendedMessages(statements: StatementCache, conversationId: string, firstPosition: number): void {
  const rows = statements.get(`SELECT seq, position, content FROM messages
    WHERE conversation_id = ? AND position >= ? ORDER BY position`)
    .all(conversationId, Math.max(0, firstPosition - 2)) as Array<{ seq: number; position: number; content: string }>;
  const byPosition = new Map(rows.map((row) => [row.position, row]));
  const contextOf = (position: number) =>
    [byPosition.get(position - 1)?.content, byPosition.get(position + 1)?.content]
      .filter((text): text is string => text !== undefined)
      .join('\n');

  // The table is contentless, so a row is rewritten whole (INSERT OR REPLACE) rather than updated.
  const write = statements.get('INSERT OR REPLACE INTO messages_fts (rowid, content, context) VALUES (?, ?, ?)');
  for (const row of rows) {
    if (row.position >= firstPosition - 1) write.run(row.seq, row.content, contextOf(row.position));
  }
}
