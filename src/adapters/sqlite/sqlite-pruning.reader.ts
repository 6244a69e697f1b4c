import type { Database } from 'better-sqlite3';
import { PINNED_IMPORTANCE } from '../../domain/conversation.js';
import type { IdleConversation, IdleConversationQuery, PruningReader } from '../../ports/pruning-reader.js';
import { optionalWithin } from '../sql/filter-sql.js';

const IDLE_WHERE = `c.status = 'active' AND c.importance_score < ${PINNED_IMPORTANCE}
  AND c.last_accessed_at < ? AND c.updated_at < ?`;

export class SqlitePruningReader implements PruningReader {
  constructor(private readonly db: Database) {}

  async idleConversations(query: IdleConversationQuery) {
    const scope = optionalWithin('c.folder', query.within);
    const rows = this.db.prepare(`
      SELECT c.id, c.label, c.last_accessed_at AS lastAccessedAt, c.updated_at AS updatedAt,
        c.message_count AS messageCount, c.importance_score AS importanceScore,
        (SELECT coalesce(sum(length(m.content)), 0) FROM messages m WHERE m.conversation_id = c.id) AS contentChars,
        coalesce((SELECT substr(m.content, 1, 100) FROM messages m WHERE m.conversation_id = c.id
          ORDER BY m.position LIMIT 1), '') AS preview
      FROM conversations c
      WHERE ${IDLE_WHERE} AND ${scope.sql}
      ORDER BY (c.importance_score <= ?) DESC, max(c.last_accessed_at, c.updated_at) ASC, c.id
      LIMIT ?`).all(query.idleBefore, query.idleBefore, ...scope.params, query.importanceThreshold, query.limit) as IdleConversation[];
    const counts = this.db.prepare(`SELECT count(*) AS total, coalesce(sum(c.importance_score <= ?), 0) AS archivable
      FROM conversations c WHERE ${IDLE_WHERE} AND ${scope.sql}`)
      .get(query.importanceThreshold, query.idleBefore, query.idleBefore, ...scope.params) as { total: number; archivable: number };
    return { items: rows, ...counts };
  }
}
