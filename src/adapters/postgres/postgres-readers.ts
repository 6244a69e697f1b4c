import { PINNED_IMPORTANCE } from '../../domain/conversation.js';
import type { SearchFilter } from '../../domain/search.js';
import type { ContextReader } from '../../ports/context-reader.js';
import type { LabelCentroid, LabelVectorReader } from '../../ports/label-vectors.js';
import type { MessageActivityReader } from '../../ports/message-activity-reader.js';
import type { IdleConversation, IdleConversationQuery, PruningReader } from '../../ports/pruning-reader.js';
import { folderSubtreeRange, optionalWithin, searchFilterWhere } from '../sql/filter-sql.js';
import { fromVectorBytes, numbered, type Pool } from './postgres-pool.js';

/** The read sides that are one or two queries each: context recall, pruning, label vectors, activity. */
export class PostgresContextReader implements ContextReader {
  constructor(private readonly pool: Pool) {}

  async pinnedMessageKeys(filter: SearchFilter, minImportance: number, limit: number): Promise<number[]> {
    const where = searchFilterWhere(filter, folderSubtreeRange);
    const { rows } = await this.pool.query<{ seq: number }>(numbered(`
      SELECT m.seq FROM conversations c JOIN messages m ON m.conversation_id = c.id
      WHERE c.importance_score >= ? AND ${where.sql}
      ORDER BY m.timestamp DESC, m.seq LIMIT ?`), [minImportance, ...where.params, limit]);
    return rows.map((row) => row.seq);
  }

  async recentMessageKeys(filter: SearchFilter, since: string, limit: number): Promise<number[]> {
    const where = searchFilterWhere(filter, folderSubtreeRange);
    const { rows } = await this.pool.query<{ seq: number }>(numbered(`
      SELECT m.seq FROM messages m JOIN conversations c ON c.id = m.conversation_id
      WHERE m.timestamp >= ? AND ${where.sql}
      ORDER BY m.timestamp DESC, m.seq LIMIT ?`), [since, ...where.params, limit]);
    return rows.map((row) => row.seq);
  }
}

const IDLE_WHERE = `c.status = 'active' AND c.importance_score < ${PINNED_IMPORTANCE}
  AND c.last_accessed_at < $1 AND c.updated_at < $1`;
/** A tenant's subtrees, numbered after the statement's own parameters. */
const scoped = (within: readonly string[] | undefined, from: number) => {
  const fragment = optionalWithin('c.folder', within, folderSubtreeRange);
  return { sql: numbered(fragment.sql, from), params: fragment.params };
};

export class PostgresPruningReader implements PruningReader {
  constructor(private readonly pool: Pool) {}

  async idleConversations(query: IdleConversationQuery) {
    const scope = scoped(query.within, 4);
    const [items, counts] = await Promise.all([
      this.pool.query<IdleConversation>(`
        SELECT c.id, c.label, c.last_accessed_at AS "lastAccessedAt", c.updated_at AS "updatedAt",
          c.message_count AS "messageCount", c.importance_score AS "importanceScore",
          (SELECT coalesce(sum(length(m.content)), 0) FROM messages m WHERE m.conversation_id = c.id) AS "contentChars",
          coalesce((SELECT substr(m.content, 1, 100) FROM messages m WHERE m.conversation_id = c.id
            ORDER BY m.position LIMIT 1), '') AS preview
        FROM conversations c
        WHERE ${IDLE_WHERE} AND ${scope.sql}
        ORDER BY (c.importance_score <= $2::float8) DESC, greatest(c.last_accessed_at, c.updated_at) ASC, c.id
        LIMIT $3`, [query.idleBefore, query.importanceThreshold, query.limit, ...scope.params]),
      this.pool.query<{ total: number; archivable: number }>(`
        SELECT count(*) AS total, count(*) FILTER (WHERE c.importance_score <= $2::float8) AS archivable
        FROM conversations c WHERE ${IDLE_WHERE} AND ${scoped(query.within, 3).sql}`,
      [query.idleBefore, query.importanceThreshold, ...scope.params]),
    ]);
    return { items: items.rows, ...counts.rows[0]! };
  }
}

export class PostgresLabelVectorReader implements LabelVectorReader {
  constructor(private readonly pool: Pool) {}

  async conversationVectors(conversationId: string, limit: number) {
    const { rows } = await this.pool.query<{ model: string; embedding: Buffer }>(`
      SELECT v.model, vector_send(v.embedding) AS embedding FROM message_vectors v JOIN messages m ON m.seq = v.message_seq
      WHERE m.conversation_id = $1 ORDER BY v.message_seq DESC LIMIT $2`, [conversationId, limit]);
    if (rows.length === 0) return null;
    const model = rows[0]!.model;
    return { model, vectors: rows.filter((row) => row.model === model).map((row) => fromVectorBytes(row.embedding)) };
  }

  async labelCentroids(model: string, excludeConversationId: string, perLabel: number, within?: readonly string[]): Promise<LabelCentroid[]> {
    const [counts, centroids] = await Promise.all([
      this.pool.query<{ label: string; n: number }>(
        `SELECT label, count(*) AS n FROM conversations c WHERE id <> $1 AND ${scoped(within, 2).sql} GROUP BY label`,
        [excludeConversationId, ...scoped(within, 2).params]),
      // pgvector averages the vectors in the database: only one vector per label crosses the wire.
      this.pool.query<{ label: string; centroid: Buffer }>(`
        SELECT label, vector_send(avg(embedding)) AS centroid FROM (
          SELECT c.label, v.embedding,
            row_number() OVER (PARTITION BY c.label ORDER BY v.message_seq DESC) AS rank
          FROM message_vectors v JOIN messages m ON m.seq = v.message_seq JOIN conversations c ON c.id = m.conversation_id
          WHERE v.model = $1 AND c.id <> $2 AND ${scoped(within, 4).sql}) ranked
        WHERE rank <= $3 GROUP BY label`, [model, excludeConversationId, perLabel, ...scoped(within, 4).params]),
    ]);
    const conversations = new Map(counts.rows.map((row) => [row.label, row.n]));
    return centroids.rows.map((row) => ({
      label: row.label,
      conversations: conversations.get(row.label) ?? 0,
      centroid: fromVectorBytes(row.centroid),
    }));
  }

  async labelUsage(limit: number, within?: readonly string[]) {
    const scope = scoped(within, 2);
    const { rows } = await this.pool.query<{ label: string; conversations: number }>(`SELECT label, count(*) AS conversations
      FROM conversations c WHERE ${scope.sql} GROUP BY label ORDER BY conversations DESC, label LIMIT $1`, [limit, ...scope.params]);
    return rows;
  }
}

export class PostgresMessageActivityReader implements MessageActivityReader {
  constructor(private readonly pool: Pool) {}

  async messagesPerDay(since: string, within?: readonly string[]) {
    if (within !== undefined) {
      const scope = scoped(within, 2);
      const { rows } = await this.pool.query<{ date: string; messages: number }>(`
        SELECT substr(m.timestamp, 1, 10) AS date, count(*) AS messages
        FROM conversations c JOIN messages m ON m.conversation_id = c.id
        WHERE m.timestamp >= $1 AND ${scope.sql} GROUP BY 1 ORDER BY 1`, [since, ...scope.params]);
      return rows;
    }
    const { rows } = await this.pool.query<{ date: string; messages: number }>(`
      SELECT substr(timestamp, 1, 10) AS date, count(*) AS messages FROM messages
      WHERE timestamp >= $1 GROUP BY 1 ORDER BY 1`, [since]);
    return rows;
  }
}
