import type { StatementCache } from './sqlite-statements.js';

/** A message as the full-text index takes it: its key (messages.seq, the FTS rowid) and its text. */
export interface IndexedText {
  seq: number;
  content: string;
}

// The table is contentless, so a row is rewritten whole (INSERT OR REPLACE) rather than updated.
const WRITE_ROW = 'INSERT OR REPLACE INTO messages_fts (rowid, content, context) VALUES (?, ?, ?)';

/** The context column of a message: the words of the turns just before and after it. */
const neighbourText = (before: string | undefined, after: string | undefined): string =>
  before === undefined ? after ?? '' : after === undefined ? before : `${before}\n${after}`;

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
  const write = statements.get(WRITE_ROW);
  for (const row of rows) {
    if (row.position < firstPosition - 1) continue;
    write.run(row.seq, row.content, neighbourText(byPosition.get(row.position - 1)?.content, byPosition.get(row.position + 1)?.content));
  }
}

/**
 * Indexes every message of a conversation just inserted whole (created or imported), given in position order, from
 * the texts at hand: the same rows as indexAppendedMessages from position 0, without reading the messages back.
 */
export function indexNewConversation(statements: StatementCache, messages: readonly IndexedText[]): void {
  const write = statements.get(WRITE_ROW);
  messages.forEach((message, i) => {
    write.run(message.seq, message.content, neighbourText(messages[i - 1]?.content, messages[i + 1]?.content));
  });
}
