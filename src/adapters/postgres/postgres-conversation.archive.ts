import type { Conversation } from '../../domain/conversation.js';
import { newId, newMessageId } from '../../domain/ids.js';
import type {
  ArchiveCursor,
  ArchiveFilter,
  ConversationArchive,
  ImportConflict,
  ImportedConversation,
  ImportOutcome,
} from '../../ports/conversation-archive.js';
import { archivePageWhere } from '../sql/filter-sql.js';
import { toConversation, type ConversationRow } from '../sql/rows.js';
import { insertMessages } from './postgres-fts-index.js';
import { inTransaction, numbered, type Pool } from './postgres-pool.js';

export class PostgresConversationArchive implements ConversationArchive {
  constructor(private readonly pool: Pool) {}

  async page(filter: ArchiveFilter, after: ArchiveCursor | null, limit: number): Promise<Conversation[]> {
    const where = archivePageWhere(filter, after);
    const { rows } = await this.pool.query<ConversationRow>(
      numbered(`SELECT * FROM conversations ${where.sql} ORDER BY created_at, id LIMIT ?`), [...where.params, limit]);
    return rows.map(toConversation);
  }

  async importAll(conversations: readonly ImportedConversation[], onConflict: ImportConflict): Promise<ImportOutcome> {
    return inTransaction(this.pool, async (client) => {
      const outcome: ImportOutcome = { imported: 0, replaced: 0, skipped: 0, messages: 0, renamed: [], removedMessageKeys: [] };
      for (const c of conversations) {
        let id = c.id;
        const exists = (await client.query('SELECT 1 FROM conversations WHERE id = $1 FOR UPDATE', [id])).rowCount! > 0;
        if (exists) {
          if (onConflict === 'skip') { outcome.skipped += 1; continue; }
          if (onConflict === 'replace') {
            const keys = await client.query<{ seq: number }>('SELECT seq FROM messages WHERE conversation_id = $1', [id]);
            outcome.removedMessageKeys.push(...keys.rows.map((row) => row.seq));
            await client.query('DELETE FROM conversations WHERE id = $1', [id]);
            outcome.replaced += 1;
          } else {
            id = newId();
            outcome.renamed.push({ from: c.id, to: id });
          }
        }
        await client.query(`INSERT INTO conversations (id, label, folder, status, importance_score, word_count, message_count,
            session_count, created_at, updated_at, last_message_at, last_accessed_at)
          VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12)`,
        [id, c.label, c.folder, c.status, c.importanceScore, c.wordCount, c.messages.length, c.sessionCount, c.createdAt,
          c.updatedAt, c.lastMessageAt, c.lastAccessedAt]);
        const wanted = c.messages.map((m) => m.id).filter((messageId): messageId is string => messageId !== null);
        const taken = new Set(wanted.length === 0 ? [] : (await client.query<{ id: string }>(
          'SELECT id FROM messages WHERE id = ANY($1::text[])', [wanted])).rows.map((row) => row.id));
        const seen = new Set<string>();
        await insertMessages(client, id, c.messages.map((m, position) => {
          // A message keeps its id unless another message (stored, or earlier in this record) has it.
          const keep = m.id !== null && !taken.has(m.id) && !seen.has(m.id);
          if (keep) seen.add(m.id!);
          return { id: keep ? m.id! : newMessageId(), position, role: m.role, name: m.name, content: m.content, timestamp: m.timestamp, metadata: m.metadata };
        }));
        outcome.imported += 1;
        outcome.messages += c.messages.length;
      }
      return outcome;
    });
  }
}
