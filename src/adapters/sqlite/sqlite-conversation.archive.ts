import type { Database } from 'better-sqlite3';
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
import { indexNewConversation } from './sqlite-fts-index.js';
import { toConversation, type ConversationRow } from '../sql/rows.js';
import { atomically } from './atomically.js';
import { addPendingMessages } from './sqlite-embedding.queue.js';
import { StatementCache } from './sqlite-statements.js';

export class SqliteConversationArchive implements ConversationArchive {
  private readonly statements: StatementCache;

  constructor(private readonly db: Database) {
    this.statements = new StatementCache(db);
  }

  async page(filter: ArchiveFilter, after: ArchiveCursor | null, limit: number): Promise<Conversation[]> {
    const where = archivePageWhere(filter, after);
    const rows = this.statements.get(`SELECT * FROM conversations ${where.sql} ORDER BY created_at, id LIMIT ?`)
      .all(...where.params, limit) as ConversationRow[];
    return rows.map(toConversation);
  }

  async importAll(conversations: readonly ImportedConversation[], onConflict: ImportConflict): Promise<ImportOutcome> {
    const exists = this.statements.get('SELECT 1 FROM conversations WHERE id = ?').pluck();
    const messageIdTaken = this.statements.get('SELECT 1 FROM messages WHERE id = ?').pluck();
    const keysOf = this.statements.get('SELECT seq FROM messages WHERE conversation_id = ?').pluck();
    const remove = this.statements.get('DELETE FROM conversations WHERE id = ?');
    const insertConversation = this.statements.get(`INSERT INTO conversations (id, label, folder, status, importance_score,
        word_count, message_count, session_count, created_at, updated_at, last_message_at, last_accessed_at)
      VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`);
    const insertMessage = this.statements.get(`INSERT INTO messages (id, conversation_id, position, role, name, content, timestamp,
        metadata) VALUES (?, ?, ?, ?, ?, ?, ?, ?)`);
    return atomically(this.db, () => {
      const outcome: ImportOutcome = { imported: 0, replaced: 0, skipped: 0, messages: 0, renamed: [], removedMessageKeys: [] };
      for (const c of conversations) {
        let id = c.id;
        if (exists.get(id) !== undefined) {
          if (onConflict === 'skip') { outcome.skipped += 1; continue; }
          if (onConflict === 'replace') {
            outcome.removedMessageKeys.push(...(keysOf.all(id) as number[]));
            remove.run(id);
            outcome.replaced += 1;
          } else {
            id = newId();
            outcome.renamed.push({ from: c.id, to: id });
          }
        }
        insertConversation.run(id, c.label, c.folder, c.status, c.importanceScore, c.wordCount, c.messages.length,
          c.sessionCount, c.createdAt, c.updatedAt, c.lastMessageAt, c.lastAccessedAt);
        const stored = c.messages.map((m, position) => {
          const messageId = m.id !== null && messageIdTaken.get(m.id) === undefined ? m.id : newMessageId();
          const { lastInsertRowid } = insertMessage.run(messageId, id, position, m.role, m.name, m.content, m.timestamp,
            m.metadata === null ? null : JSON.stringify(m.metadata));
          return { seq: Number(lastInsertRowid), content: m.content };
        });
        indexNewConversation(this.statements, stored);
        outcome.imported += 1;
        outcome.messages += c.messages.length;
      }
      addPendingMessages((sql) => this.statements.get(sql), outcome.messages);
      return outcome;
    });
  }
}
