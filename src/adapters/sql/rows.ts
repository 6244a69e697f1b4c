import type { Conversation, ConversationStatus, EmbeddingStatus, Message, MessageRole } from '../../domain/conversation.js';
import type { MessageHit } from '../../domain/search.js';

/** Rows as the SQL drivers return them (same columns in SQLite and Postgres), and their mapping to domain objects. */
export interface ConversationRow {
  id: string;
  label: string;
  folder: string;
  status: ConversationStatus;
  importance_score: number;
  word_count: number;
  message_count: number;
  session_count: number;
  created_at: string;
  updated_at: string;
  last_message_at: string | null;
  last_accessed_at: string;
}

export interface MessageRow {
  id: string;
  conversation_id: string;
  position: number;
  role: MessageRole;
  name: string | null;
  content: string;
  timestamp: string;
  metadata: string | null;
  embedding_id: string | null;
  embedding_status: EmbeddingStatus;
}

export function toConversation(row: ConversationRow): Conversation {
  return {
    id: row.id,
    label: row.label,
    folder: row.folder,
    status: row.status,
    importanceScore: row.importance_score,
    wordCount: row.word_count,
    messageCount: row.message_count,
    sessionCount: row.session_count,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    lastMessageAt: row.last_message_at,
    lastAccessedAt: row.last_accessed_at,
  };
}

export function toMessage(row: MessageRow): Message {
  return {
    id: row.id,
    conversationId: row.conversation_id,
    position: row.position,
    role: row.role,
    name: row.name,
    content: row.content,
    timestamp: row.timestamp,
    embeddingId: row.embedding_id,
    embeddingStatus: row.embedding_status,
    metadata: row.metadata === null ? null : (JSON.parse(row.metadata) as Record<string, unknown>),
  };
}

/**
 * A search hit as both drivers select it: the message with its conversation's label, folder, importance and status.
 * `embeddingId` is the expression of the message's embedding id (a column on SQLite, derived on PostgreSQL).
 */
export const hitColumns = (embeddingId: string) => `m.seq, m.id, m.conversation_id, m.role, m.content, m.timestamp,
  ${embeddingId}, m.metadata, m.position, c.label, c.folder, c.importance_score, c.status, m.name`;
export const HIT_COLUMNS = hitColumns('m.embedding_id');

/** A row of HIT_COLUMNS, read as an array (better-sqlite3's raw(), pg's rowMode 'array'). */
export type HitColumns = [
  seq: number, id: string, conversationId: string, role: MessageHit['role'], content: string, timestamp: string,
  embeddingId: string | null, metadata: string | null, position: number, label: string, folder: string,
  importanceScore: number, status: MessageHit['status'], name: string | null,
];

/**
 * A hit from a row of HIT_COLUMNS. Rows are read as arrays because better-sqlite3 builds a row object a property at
 * a time: reading 1,260 hits (a context assembly's candidates at a million messages) as arrays mapped here took p50
 * 9.6-13.1 ms (median of ten passes 12.2) against 11.9-16.4 ms (15.2) as row objects mapped field by field
 * (bench/NOTES.md, "Settled by probes since deleted").
 */
export function hitFromColumns(row: HitColumns): MessageHit {
  return {
    key: row[0],
    messageId: row[1],
    conversationId: row[2],
    role: row[3],
    name: row[13],
    content: row[4],
    timestamp: row[5],
    embeddingId: row[6],
    metadata: row[7] === null ? null : (JSON.parse(row[7]) as Record<string, unknown>),
    label: row[9],
    folder: row[10],
    importanceScore: row[11],
    status: row[12],
    position: row[8],
  };
}

/** (message, neighbour) rows, in order, as each message's list of neighbours. */
export function groupNeighbours(rows: ReadonlyArray<{ key: number; neighbour: number }>): Map<number, number[]> {
  const result = new Map<number, number[]>();
  for (const { key, neighbour } of rows) {
    const list = result.get(key);
    if (list) list.push(neighbour);
    else result.set(key, [neighbour]);
  }
  return result;
}
