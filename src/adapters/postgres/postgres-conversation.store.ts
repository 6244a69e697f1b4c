import type { Conversation, ConversationStatus, Message, MessageInput } from '../../domain/conversation.js';
import { EMPTY_CONVERSATION, planAppend } from '../../domain/append-plan.js';
import { newMessageId } from '../../domain/ids.js';
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
import { CONVERSATION_SORT_COLUMNS, conversationWhere, folderSubtreeRange, folderWithin } from '../sql/filter-sql.js';
import { toConversation, toMessage, type ConversationRow, type MessageRow } from '../sql/rows.js';
import { insertMessages, messageInsertCtes } from './postgres-fts-index.js';
import { EMBEDDING_COLUMNS, inTransaction, numbered, type Pool, type PoolClient } from './postgres-pool.js';

export class PostgresConversationStore implements ConversationStore {
  constructor(private readonly pool: Pool) {}

  /** One statement, so one round trip: the conversation with its final counters, its messages and their jobs. */
  async create(input: NewConversation, policy: AppendPolicy): Promise<Conversation> {
    const plan = planAppend(EMPTY_CONVERSATION, input.messages, input.now, policy);
    const messages = plan.messages.map((planned) => ({ id: newMessageId(), ...planned }));
    const { counters } = plan;
    const conversation = `INSERT INTO conversations (id, label, folder, importance_score, message_count, word_count, session_count,
        last_message_at, created_at, updated_at, last_accessed_at)
      VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $9, $9) RETURNING *`;
    const values = [input.id, input.label, input.folder, input.importanceScore, counters.messageCount, counters.wordCount,
      counters.sessionCount, counters.lastMessageAt, input.now];
    const insert = messages.length > 0 ? messageInsertCtes(input.id, messages, values.length + 1) : null;
    const { rows } = await this.pool.query<ConversationRow>(
      `WITH conversation AS (${conversation})${insert ? `, ${insert.sql}` : ''} SELECT * FROM conversation`,
      [...values, ...(insert?.params ?? [])]);
    return toConversation(rows[0]!);
  }

  async get(id: string): Promise<Conversation | null> {
    const { rows } = await this.pool.query<ConversationRow>('SELECT * FROM conversations WHERE id = $1', [id]);
    return rows[0] ? toConversation(rows[0]) : null;
  }

  async list(request: ConversationListRequest): Promise<{ items: Conversation[]; total: number }> {
    const where = conversationWhere(request.filter);
    const direction = request.order === 'asc' ? 'ASC' : 'DESC';
    const column = CONVERSATION_SORT_COLUMNS[request.sort];
    const [count, page] = await Promise.all([
      this.pool.query<{ n: number }>(numbered(`SELECT count(*) AS n FROM conversations ${where.sql}`), where.params),
      this.pool.query<ConversationRow>(numbered(`SELECT * FROM conversations ${where.sql}
        ORDER BY ${column} ${direction}, id ${direction} LIMIT ? OFFSET ?`), [...where.params, request.limit, request.offset]),
    ]);
    return { items: page.rows.map(toConversation), total: count.rows[0]!.n };
  }

  async count(filter: ConversationFilter): Promise<number> {
    const where = conversationWhere(filter);
    const { rows } = await this.pool.query<{ n: number }>(numbered(`SELECT count(*) AS n FROM conversations ${where.sql}`), where.params);
    return rows[0]!.n;
  }

  async update(id: string, patch: ConversationPatch, now: string): Promise<boolean> {
    const sets: string[] = [];
    const params: unknown[] = [];
    if (patch.label !== undefined) { sets.push('label = ?'); params.push(patch.label); }
    if (patch.folder !== undefined) { sets.push('folder = ?'); params.push(patch.folder); }
    if (patch.importanceScore !== undefined) { sets.push('importance_score = ?'); params.push(patch.importanceScore); }
    if (patch.status !== undefined) { sets.push('status = ?'); params.push(patch.status); }
    sets.push('updated_at = ?');
    params.push(now, id);
    const result = await this.pool.query(numbered(`UPDATE conversations SET ${sets.join(', ')} WHERE id = ?`), params);
    return (result.rowCount ?? 0) > 0;
  }

  async setStatusMany(ids: readonly string[], status: ConversationStatus, now: string): Promise<string[]> {
    return inTransaction(this.pool, async (client) => {
      const { rows } = await client.query<{ id: string }>(
        'SELECT id FROM conversations WHERE id = ANY($1::text[]) FOR UPDATE', [ids]);
      const found = new Set(rows.map((row) => row.id));
      const unknown = ids.filter((id) => !found.has(id));
      if (unknown.length > 0) return unknown;
      await client.query('UPDATE conversations SET status = $1, updated_at = $2 WHERE id = ANY($3::text[])', [status, now, ids]);
      return [];
    });
  }

  async delete(id: string): Promise<number[] | null> {
    return inTransaction(this.pool, async (client) => {
      const keys = (await client.query<{ seq: number }>('SELECT seq FROM messages WHERE conversation_id = $1', [id])).rows
        .map((row) => row.seq);
      const deleted = await client.query('DELETE FROM conversations WHERE id = $1', [id]);
      return (deleted.rowCount ?? 0) > 0 ? keys : null;
    });
  }

  async appendMessages(id: string, messages: readonly MessageInput[], now: string, policy: AppendPolicy):
    Promise<{ conversation: Conversation; messages: Message[] } | null> {
    const inserted = await inTransaction(this.pool, (client) => this.appendInTransaction(client, id, messages, now, policy));
    if (inserted === null) return null;
    return { conversation: (await this.get(id))!, messages: inserted };
  }

  async listMessages(conversationId: string, page: PageRequest): Promise<{ items: Message[]; total: number }> {
    const [messages, total] = await Promise.all([
      this.pool.query<MessageRow>(`SELECT m.id, m.conversation_id, m.position, m.role, m.name, m.content, m.timestamp, m.metadata,
        ${EMBEDDING_COLUMNS} FROM messages m LEFT JOIN embedding_jobs j ON j.message_seq = m.seq
        WHERE m.conversation_id = $1 ORDER BY m.position LIMIT $2 OFFSET $3`,
      [conversationId, page.limit, page.offset]),
      this.pool.query<{ message_count: number }>('SELECT message_count FROM conversations WHERE id = $1', [conversationId]),
    ]);
    return { items: messages.rows.map(toMessage), total: total.rows[0]?.message_count ?? 0 };
  }

  async touch(id: string, now: string): Promise<void> {
    await this.pool.query('UPDATE conversations SET last_accessed_at = $1 WHERE id = $2', [now, id]);
  }

  async folderCounts(within?: readonly string[]): Promise<FolderCount[]> {
    const where = within === undefined ? { sql: 'TRUE', params: [] } : folderWithin('folder', within, folderSubtreeRange);
    const { rows } = await this.pool.query<FolderCount>(
      numbered(`SELECT folder, count(*) AS count FROM conversations WHERE ${where.sql} GROUP BY folder ORDER BY folder`), where.params);
    return rows;
  }

  async groupStats(filter: ConversationFilter, by: 'folder' | 'label'): Promise<GroupStats[]> {
    const where = conversationWhere(filter);
    const column = by === 'folder' ? 'folder' : 'label';
    const { rows } = await this.pool.query<GroupStats>(numbered(`SELECT ${column} AS key, count(*) AS count,
        avg(importance_score)::float8 AS "averageImportance"
      FROM conversations ${where.sql} GROUP BY ${column} ORDER BY count(*) DESC, ${column}`), where.params);
    return rows;
  }

  async totals(within?: readonly string[]): Promise<StoreTotals> {
    if (within !== undefined) return this.totalsWithin(within);
    const { rows } = await this.pool.query<StoreTotals>(`SELECT
        (SELECT count(*) FROM conversations) AS conversations,
        (SELECT coalesce(sum(message_count), 0) FROM conversations) AS messages,
        (SELECT count(*) FROM message_vectors) AS "embeddedMessages",
        pg_database_size(current_database()) AS "storageBytes"`);
    return rows[0]!;
  }

  /** The totals of the conversations in the subtrees; their share of the database by their share of the messages. */
  private async totalsWithin(within: readonly string[]): Promise<StoreTotals> {
    const where = folderWithin('c.folder', within, folderSubtreeRange);
    const { rows } = await this.pool.query<StoreTotals & { allMessages: number }>(numbered(`SELECT
        (SELECT count(*) FROM conversations c WHERE ${where.sql}) AS conversations,
        (SELECT coalesce(sum(message_count), 0) FROM conversations c WHERE ${where.sql})::float8 AS messages,
        (SELECT count(*) FROM message_vectors v JOIN conversations c ON c.id = v.conversation_id WHERE ${where.sql}) AS "embeddedMessages",
        (SELECT coalesce(sum(message_count), 0) FROM conversations)::float8 AS "allMessages",
        pg_database_size(current_database()) AS "storageBytes"`), [...where.params, ...where.params, ...where.params]);
    const { allMessages, ...totals } = rows[0]!;
    const storageBytes = Number(allMessages) === 0 ? 0 : Math.round(Number(totals.storageBytes) * (Number(totals.messages) / Number(allMessages)));
    return { ...totals, messages: Number(totals.messages), storageBytes };
  }

  async ping(): Promise<void> {
    await this.pool.query('SELECT 1');
  }

  async close(): Promise<void> {}

  /** Applies the append rules under a row lock, so concurrent appends to one conversation get distinct positions. */
  private async appendInTransaction(client: PoolClient, id: string, inputs: readonly MessageInput[], now: string,
    policy: AppendPolicy): Promise<Message[] | null> {
    const { rows } = await client.query<Pick<ConversationRow, 'message_count' | 'word_count' | 'session_count' | 'last_message_at'>>(
      'SELECT message_count, word_count, session_count, last_message_at FROM conversations WHERE id = $1 FOR UPDATE', [id]);
    const row = rows[0];
    if (!row) return null;
    const plan = planAppend({
      messageCount: row.message_count, wordCount: row.word_count, sessionCount: row.session_count, lastMessageAt: row.last_message_at,
    }, inputs, now, policy);
    const messages = plan.messages.map((planned): Message =>
      ({ id: newMessageId(), conversationId: id, ...planned, embeddingId: null, embeddingStatus: 'pending' }));
    if (messages.length > 0) {
      await insertMessages(client, id, messages);
      const { counters } = plan;
      await client.query(`UPDATE conversations SET message_count = $1, word_count = $2, session_count = $3,
        last_message_at = $4, updated_at = $5 WHERE id = $6`,
      [counters.messageCount, counters.wordCount, counters.sessionCount, counters.lastMessageAt, now, id]);
    }
    return messages;
  }
}
