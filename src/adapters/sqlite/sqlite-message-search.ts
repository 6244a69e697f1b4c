import type { Database } from 'better-sqlite3';
import { ErrorCode, ValidationError } from '../../domain/errors.js';
import type { MessageHit, ScoredKey, SearchFilter } from '../../domain/search.js';
import type { FullTextOptions, MessageSearchReader } from '../../ports/message-search.js';
import { searchFilterWhere } from './sqlite-filters.js';

interface HitRow {
  seq: number;
  id: string;
  conversation_id: string;
  role: MessageHit['role'];
  content: string;
  timestamp: string;
  embedding_id: string | null;
  metadata: string | null;
  position: number;
  label: string;
  folder: string;
  importance_score: number;
  status: MessageHit['status'];
}

/** Largest number of keys bound into one IN (...) list; SQLite's default limit is 32,766 variables. */
const KEY_CHUNK = 10_000;

export class SqliteMessageSearch implements MessageSearchReader {
  constructor(private readonly db: Database) {}

  async fullText(match: string, filter: SearchFilter, limit: number, options: FullTextOptions = { contextWeight: 0 }):
    Promise<ScoredKey[]> {
    const where = searchFilterWhere(filter);
    const weight = Number(options.contextWeight);
    // Without context, the column filter keeps matches to the message's own words.
    const expression = weight > 0 ? match : `content : (${match})`;
    const bm25 = `bm25(messages_fts, 1.0, ${weight > 0 ? weight : 0})`;
    try {
      // bm25() is lower-is-better and negative; negate it so scores grow with relevance.
      return this.db.prepare(`
        SELECT f.rowid AS key, -${bm25} AS score
        FROM messages_fts f
        JOIN messages m ON m.seq = f.rowid
        JOIN conversations c ON c.id = m.conversation_id
        WHERE messages_fts MATCH ? AND ${where.sql}
        ORDER BY ${bm25}, f.rowid
        LIMIT ?`).all(expression, ...where.params, limit) as ScoredKey[];
    } catch (error) {
      const message = (error as Error).message;
      if (/fts5|syntax|unterminated|no such column|unknown special query/i.test(message)) {
        throw new ValidationError(`Invalid full-text query: ${message.replace(/^fts5: /, '')}. ` +
          'Use words, "exact phrases", AND, OR, NOT and parentheses.', ErrorCode.INVALID_QUERY);
      }
      throw error;
    }
  }

  async keysMatching(keys: readonly number[], filter: SearchFilter): Promise<Set<number>> {
    const where = searchFilterWhere(filter);
    const found = new Set<number>();
    for (let start = 0; start < keys.length; start += KEY_CHUNK) {
      const chunk = keys.slice(start, start + KEY_CHUNK);
      const rows = this.db.prepare(`
        SELECT m.seq FROM messages m JOIN conversations c ON c.id = m.conversation_id
        WHERE m.seq IN (${chunk.map(() => '?').join(',')}) AND ${where.sql}`)
        .pluck().all(...chunk, ...where.params) as number[];
      for (const key of rows) found.add(key);
    }
    return found;
  }

  async neighbours(keys: readonly number[], filter: SearchFilter): Promise<Map<number, number[]>> {
    const where = searchFilterWhere(filter);
    const result = new Map<number, number[]>();
    for (let start = 0; start < keys.length; start += KEY_CHUNK) {
      const chunk = keys.slice(start, start + KEY_CHUNK);
      const rows = this.db.prepare(`
        SELECT source.seq AS key, m.seq AS neighbour
        FROM messages source
        JOIN messages m ON m.conversation_id = source.conversation_id
          AND m.position IN (source.position - 1, source.position + 1)
        JOIN conversations c ON c.id = m.conversation_id
        WHERE source.seq IN (${chunk.map(() => '?').join(',')}) AND ${where.sql}`)
        .all(...chunk, ...where.params) as Array<{ key: number; neighbour: number }>;
      for (const { key, neighbour } of rows) {
        const list = result.get(key);
        if (list) list.push(neighbour);
        else result.set(key, [neighbour]);
      }
    }
    return result;
  }

  async hydrate(keys: readonly number[]): Promise<MessageHit[]> {
    const byKey = new Map<number, MessageHit>();
    for (let start = 0; start < keys.length; start += KEY_CHUNK) {
      const chunk = keys.slice(start, start + KEY_CHUNK);
      const rows = this.db.prepare(`
        SELECT m.seq, m.id, m.conversation_id, m.role, m.content, m.timestamp, m.embedding_id, m.metadata,
               m.position, c.label, c.folder, c.importance_score, c.status
        FROM messages m JOIN conversations c ON c.id = m.conversation_id
        WHERE m.seq IN (${chunk.map(() => '?').join(',')})`).all(...chunk) as HitRow[];
      for (const row of rows) byKey.set(row.seq, toHit(row));
    }
    return keys.flatMap((key) => byKey.get(key) ?? []);
  }
}

function toHit(row: HitRow): MessageHit {
  return {
    key: row.seq,
    messageId: row.id,
    conversationId: row.conversation_id,
    role: row.role,
    content: row.content,
    timestamp: row.timestamp,
    embeddingId: row.embedding_id,
    metadata: row.metadata === null ? null : (JSON.parse(row.metadata) as Record<string, unknown>),
    label: row.label,
    folder: row.folder,
    importanceScore: row.importance_score,
    status: row.status,
    position: row.position,
  };
}
