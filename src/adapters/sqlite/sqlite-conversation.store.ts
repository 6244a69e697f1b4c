import { statSync } from 'node:fs';
import type { Database, Statement } from 'better-sqlite3';
import type { Conversation, ConversationStatus, Message, MessageInput } from '../../domain/conversation.js';
import { EMPTY_CONVERSATION, planAppend, type PlannedMessage } from '../../domain/append-plan.js';
import { newMessageId } from '../../domain/ids.js';
import { CONVERSATION_SORT_COLUMNS, conversationWhere, folderWithin } from '../sql/filter-sql.js';
import { addPendingMessages, messagesInState } from './sqlite-embedding.queue.js';
import { StatementCache } from './sqlite-statements.js';
import { indexAppendedMessages, indexNewConversation, type IndexedText } from './sqlite-fts-index.js';
import { toConversation, toMessage, type ConversationRow, type MessageRow } from '../sql/rows.js';
import type {
  AppendPolicy,
  ConversationFilter,
  ConversationListRequest,
  ConversationPatch,
  ConversationStore,
  FolderCount,
  GroupStats,
  NewConversation,
  PageRequest,
  StoreTotals,
} from '../../ports/conversation-store.js';
import { atomically } from './atomically.js';

/**
 * Above this many matches a folder subtree is listed by walking the sort index
 * and skipping other folders (the page fills after about page_size * total /
 * matches rows); below it, the folder index finds the few matches to sort.
 */
const FOLDER_SCAN_THRESHOLD = 2000;

export class SqliteConversationStore implements ConversationStore {
  private readonly statements: StatementCache;

  constructor(
    private readonly db: Database,
    private readonly file: string,
  ) {
    this.statements = new StatementCache(db);
  }

  /**
   * A new conversation's counters are known before it is stored (it starts empty): its row goes in once, with them,
   * and is answered from what was stored rather than read back.
   */
  async create(input: NewConversation, policy: AppendPolicy): Promise<Conversation> {
    const { messages, counters } = planAppend(EMPTY_CONVERSATION, input.messages, input.now, policy);
    const row: ConversationRow = {
      id: input.id, label: input.label, folder: input.folder, status: 'active', importance_score: input.importanceScore,
      word_count: counters.wordCount, message_count: counters.messageCount, session_count: counters.sessionCount,
      created_at: input.now, updated_at: input.now, last_message_at: counters.lastMessageAt, last_accessed_at: input.now,
    };
    atomically(this.db, () => {
      this.stmt(`INSERT INTO conversations (id, label, folder, status, importance_score, word_count, message_count,
          session_count, created_at, updated_at, last_message_at, last_accessed_at)
        VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`).run(row.id, row.label, row.folder, row.status, row.importance_score,
        row.word_count, row.message_count, row.session_count, row.created_at, row.updated_at, row.last_message_at,
        row.last_accessed_at);
      const stored = this.insertPlanned(input.id, messages);
      indexNewConversation(this.statements, stored);
    });
    return toConversation(row);
  }

  async get(id: string): Promise<Conversation | null> {
    const row = this.stmt('SELECT * FROM conversations WHERE id = ?').get(id) as ConversationRow | undefined;
    return row ? toConversation(row) : null;
  }

  async list(request: ConversationListRequest): Promise<{ items: Conversation[]; total: number }> {
    const counted = conversationWhere(request.filter);
    const total = this.stmt(`SELECT count(*) FROM conversations ${counted.sql}`).pluck().get(...counted.params) as number;
    const where = conversationWhere(request.filter, total < FOLDER_SCAN_THRESHOLD ? 'folder' : '+folder');
    const column = CONVERSATION_SORT_COLUMNS[request.sort];
    const direction = request.order === 'asc' ? 'ASC' : 'DESC';
    const rows = this.stmt(`SELECT * FROM conversations ${where.sql}
      ORDER BY ${column} ${direction}, id ${direction} LIMIT ? OFFSET ?`)
      .all(...where.params, request.limit, request.offset) as ConversationRow[];
    return { items: rows.map(toConversation), total };
  }

  async count(filter: ConversationFilter): Promise<number> {
    const where = conversationWhere(filter);
    return this.stmt(`SELECT count(*) FROM conversations ${where.sql}`).pluck().get(...where.params) as number;
  }

  async update(id: string, patch: ConversationPatch, now: string): Promise<boolean> {
    const sets: string[] = [];
    const params: unknown[] = [];
    if (patch.label !== undefined) { sets.push('label = ?'); params.push(patch.label); }
    if (patch.folder !== undefined) { sets.push('folder = ?'); params.push(patch.folder); }
    if (patch.importanceScore !== undefined) { sets.push('importance_score = ?'); params.push(patch.importanceScore); }
    if (patch.status !== undefined) { sets.push('status = ?'); params.push(patch.status); }
    sets.push('updated_at = ?');
    params.push(now);
    const result = this.stmt(`UPDATE conversations SET ${sets.join(', ')} WHERE id = ?`).run(...params, id);
    return result.changes > 0;
  }

  async setStatusMany(ids: readonly string[], status: ConversationStatus, now: string): Promise<string[]> {
    return atomically(this.db, () => {
      const exists = this.stmt('SELECT 1 FROM conversations WHERE id = ?').pluck();
      const unknown = ids.filter((id) => exists.get(id) === undefined);
      if (unknown.length > 0) return unknown;
      const update = this.stmt('UPDATE conversations SET status = ?, updated_at = ? WHERE id = ?');
      for (const id of ids) update.run(status, now, id);
      return [];
    });
  }

  async delete(id: string): Promise<number[] | null> {
    return atomically(this.db, () => {
      const keys = this.stmt('SELECT seq FROM messages WHERE conversation_id = ?').pluck().all(id) as number[];
      const deleted = this.stmt('DELETE FROM conversations WHERE id = ?').run(id).changes > 0;
      return deleted ? keys : null;
    });
  }

  async appendMessages(id: string, messages: readonly MessageInput[], now: string, policy: AppendPolicy):
    Promise<{ conversation: Conversation; messages: Message[] } | null> {
    const inserted = atomically(this.db, () => {
      if (this.stmt('SELECT 1 FROM conversations WHERE id = ?').get(id) === undefined) return null;
      return this.appendInTransaction(id, messages, now, policy);
    });
    if (inserted === null) return null;
    return { conversation: (await this.get(id))!, messages: inserted };
  }

  async listMessages(conversationId: string, page: PageRequest): Promise<{ items: Message[]; total: number }> {
    const rows = this.stmt(`SELECT * FROM messages WHERE conversation_id = ? ORDER BY position LIMIT ? OFFSET ?`)
      .all(conversationId, page.limit, page.offset) as MessageRow[];
    const total = this.stmt('SELECT message_count FROM conversations WHERE id = ?').pluck().get(conversationId) as
      number | undefined;
    return { items: rows.map(toMessage), total: total ?? 0 };
  }

  async touch(id: string, now: string): Promise<void> {
    this.stmt('UPDATE conversations SET last_accessed_at = ? WHERE id = ?').run(now, id);
  }

  async folderCounts(within?: readonly string[]): Promise<FolderCount[]> {
    if (within === undefined) {
      return this.stmt('SELECT folder, count(*) AS count FROM conversations GROUP BY folder ORDER BY folder')
        .all() as FolderCount[];
    }
    const where = folderWithin('folder', within);
    return this.stmt(`SELECT folder, count(*) AS count FROM conversations WHERE ${where.sql} GROUP BY folder ORDER BY folder`)
      .all(...where.params) as FolderCount[];
  }

  async groupStats(filter: ConversationFilter, by: 'folder' | 'label'): Promise<GroupStats[]> {
    const where = conversationWhere(filter);
    const column = by === 'folder' ? 'folder' : 'label';
    return this.stmt(`SELECT ${column} AS key, count(*) AS count, avg(importance_score) AS averageImportance
      FROM conversations ${where.sql} GROUP BY ${column} ORDER BY count(*) DESC, ${column}`)
      .all(...where.params) as GroupStats[];
  }

  async totals(within?: readonly string[]): Promise<StoreTotals> {
    const row = this.stmt(`SELECT count(*) AS conversations, coalesce(sum(message_count), 0) AS messages
      FROM conversations`).get() as { conversations: number; messages: number };
    if (within !== undefined) return this.totalsWithin(within, row.messages);
    // A message has a stored vector exactly when it is 'done' (see sqlite-vector-count.ts): the count migration 5
    // keeps (messagesInState), rather than a read of message_vectors' page per vector.
    const embedded = messagesInState((sql) => this.stmt(sql), 'done');
    return { ...row, embeddedMessages: embedded, storageBytes: this.storageBytes() };
  }

  /** The totals of the conversations in the subtrees; their share of the file by their share of the messages. */
  private totalsWithin(within: readonly string[], allMessages: number): StoreTotals {
    const where = folderWithin('c.folder', within);
    const row = this.stmt(`SELECT count(*) AS conversations, coalesce(sum(message_count), 0) AS messages
      FROM conversations c WHERE ${where.sql}`).get(...where.params) as { conversations: number; messages: number };
    const embedded = this.stmt(`SELECT count(*) FROM conversations c JOIN messages m ON m.conversation_id = c.id
      WHERE ${where.sql} AND m.embedding_status = 'done'`).pluck().get(...where.params) as number;
    const storageBytes = allMessages === 0 ? 0 : Math.round(this.storageBytes() * (row.messages / allMessages));
    return { ...row, embeddedMessages: embedded, storageBytes };
  }

  async ping(): Promise<void> {
    this.stmt('SELECT 1').get();
  }

  async close(): Promise<void> {
    if (this.db.open) this.db.close();
  }

  /** Must run inside a transaction: applies the append rules and keeps the counters true. */
  private appendInTransaction(id: string, inputs: readonly MessageInput[], now: string, policy: AppendPolicy): Message[] {
    const row = this.stmt(`SELECT message_count, word_count, session_count, last_message_at
      FROM conversations WHERE id = ?`).get(id) as
      Pick<ConversationRow, 'message_count' | 'word_count' | 'session_count' | 'last_message_at'>;
    const plan = planAppend({
      messageCount: row.message_count, wordCount: row.word_count, sessionCount: row.session_count, lastMessageAt: row.last_message_at,
    }, inputs, now, policy);
    const messages = this.insertPlanned(id, plan.messages).map(({ message }) => message);
    if (inputs.length > 0) {
      indexAppendedMessages(this.statements, id, row.message_count);
      const { counters } = plan;
      this.stmt(`UPDATE conversations SET message_count = ?, word_count = ?, session_count = ?,
        last_message_at = ?, updated_at = ? WHERE id = ?`)
        .run(counters.messageCount, counters.wordCount, counters.sessionCount, counters.lastMessageAt, now, id);
    }
    return messages;
  }

  /** Inserts planned messages (in a transaction) and counts them pending; each with its key, for the full-text index. */
  private insertPlanned(id: string, planned: readonly PlannedMessage[]): Array<IndexedText & { message: Message }> {
    const insert = this.stmt(`INSERT INTO messages (id, conversation_id, position, role, name, content, timestamp, metadata)
      VALUES (?, ?, ?, ?, ?, ?, ?, ?)`);
    const inserted = planned.map((plannedMessage) => {
      const message: Message = { id: newMessageId(), conversationId: id, ...plannedMessage, embeddingId: null, embeddingStatus: 'pending' };
      const { lastInsertRowid } = insert.run(message.id, id, message.position, message.role, message.name, message.content,
        message.timestamp, message.metadata === null ? null : JSON.stringify(message.metadata));
      return { seq: Number(lastInsertRowid), content: message.content, message };
    });
    addPendingMessages((sql) => this.stmt(sql), inserted.length);
    return inserted;
  }

  private storageBytes(): number {
    if (this.file === ':memory:') return 0;
    return [this.file, `${this.file}-wal`].reduce((sum, path) => {
      try {
        return sum + statSync(path).size;
      } catch {
        return sum;
      }
    }, 0);
  }

  private stmt(sql: string): Statement {
    return this.statements.get(sql);
  }

}
