import type { StoredSummary, SummaryLevel, SummaryStore, WindowMessage } from '../../ports/summary-store.js';
import { inTransaction, type Pool } from './postgres-pool.js';

export class PostgresSummaryStore implements SummaryStore {
  constructor(private readonly pool: Pool) {}

  async messageKeysInWindow(conversationId: string, start: string, end: string): Promise<number[]> {
    const { rows } = await this.pool.query<{ seq: number }>(`SELECT seq FROM messages
      WHERE conversation_id = $1 AND timestamp > $2 AND timestamp <= $3 ORDER BY seq`, [conversationId, start, end]);
    return rows.map((row) => row.seq);
  }

  async messagesInWindow(conversationId: string, start: string, end: string, limit: number): Promise<WindowMessage[]> {
    const { rows } = await this.pool.query<WindowMessage>(`SELECT role, content, timestamp FROM messages
      WHERE conversation_id = $1 AND timestamp > $2 AND timestamp <= $3
      ORDER BY timestamp DESC, position DESC LIMIT $4`, [conversationId, start, end, limit]);
    return rows.reverse();
  }

  async find(conversationId: string, level: SummaryLevel, sourceHash: string): Promise<StoredSummary | null> {
    const { rows } = await this.pool.query<StoredSummary>(`SELECT conversation_id AS "conversationId", level,
        source_hash AS "sourceHash", window_start AS "windowStart", window_end AS "windowEnd", source_count AS "sourceCount",
        summary, model, generated_at AS "generatedAt"
      FROM summaries WHERE conversation_id = $1 AND level = $2 AND source_hash = $3`, [conversationId, level, sourceHash]);
    return rows[0] ?? null;
  }

  async save(summary: StoredSummary, keepPerLevel: number): Promise<void> {
    await inTransaction(this.pool, async (client) => {
      // The conversation may have been deleted while the summary was generated: then there is nothing to keep.
      await client.query(`INSERT INTO summaries (conversation_id, level, source_hash, window_start, window_end,
          source_count, summary, model, generated_at)
        SELECT $1, $2, $3, $4, $5, $6, $7, $8, $9 WHERE EXISTS (SELECT 1 FROM conversations WHERE id = $1)
        ON CONFLICT (conversation_id, level, source_hash) DO UPDATE SET window_start = excluded.window_start,
          window_end = excluded.window_end, source_count = excluded.source_count, summary = excluded.summary,
          model = excluded.model, generated_at = excluded.generated_at`,
      [summary.conversationId, summary.level, summary.sourceHash, summary.windowStart, summary.windowEnd,
        summary.sourceCount, summary.summary, summary.model, summary.generatedAt]);
      await client.query(`DELETE FROM summaries WHERE conversation_id = $1 AND level = $2 AND source_hash NOT IN (
          SELECT source_hash FROM summaries WHERE conversation_id = $1 AND level = $2
          ORDER BY generated_at DESC LIMIT $3)`, [summary.conversationId, summary.level, keepPerLevel]);
    });
  }
}
