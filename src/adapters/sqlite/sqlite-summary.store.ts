import type { Database } from 'better-sqlite3';
import type { StoredSummary, SummaryLevel, SummaryStore, WindowMessage } from '../../ports/summary-store.js';
import { atomically } from './atomically.js';

interface SummaryRow {
  conversation_id: string;
  level: SummaryLevel;
  source_hash: string;
  window_start: string;
  window_end: string;
  source_count: number;
  summary: string;
  model: string;
  generated_at: string;
}

/** Timestamps are stored as ISO 8601 UTC strings with milliseconds, so text order is time order. */
export class SqliteSummaryStore implements SummaryStore {
  constructor(private readonly db: Database) {}

  async messageKeysInWindow(conversationId: string, start: string, end: string): Promise<number[]> {
    return this.db.prepare(`SELECT seq FROM messages
      WHERE conversation_id = ? AND timestamp > ? AND timestamp <= ? ORDER BY seq`)
      .pluck().all(conversationId, start, end) as number[];
  }

  async messagesInWindow(conversationId: string, start: string, end: string, limit: number): Promise<WindowMessage[]> {
    const rows = this.db.prepare(`SELECT role, content, timestamp FROM messages
      WHERE conversation_id = ? AND timestamp > ? AND timestamp <= ?
      ORDER BY timestamp DESC, position DESC LIMIT ?`).all(conversationId, start, end, limit) as WindowMessage[];
    return rows.reverse();
  }

  async find(conversationId: string, level: SummaryLevel, sourceHash: string): Promise<StoredSummary | null> {
    const row = this.db.prepare('SELECT * FROM summaries WHERE conversation_id = ? AND level = ? AND source_hash = ?')
      .get(conversationId, level, sourceHash) as SummaryRow | undefined;
    return row ? toSummary(row) : null;
  }

  async save(summary: StoredSummary, keepPerLevel: number): Promise<void> {
    atomically(this.db, () => {
      // The conversation may have been deleted while the summary was generated: then there is nothing to keep.
      this.db.prepare(`INSERT OR REPLACE INTO summaries (conversation_id, level, source_hash, window_start, window_end,
          source_count, summary, model, generated_at)
        SELECT ?, ?, ?, ?, ?, ?, ?, ?, ? WHERE EXISTS (SELECT 1 FROM conversations WHERE id = ?)`)
        .run(summary.conversationId, summary.level, summary.sourceHash, summary.windowStart, summary.windowEnd,
          summary.sourceCount, summary.summary, summary.model, summary.generatedAt, summary.conversationId);
      this.db.prepare(`DELETE FROM summaries WHERE conversation_id = ? AND level = ? AND source_hash NOT IN (
          SELECT source_hash FROM summaries WHERE conversation_id = ? AND level = ?
          ORDER BY generated_at DESC LIMIT ?)`)
        .run(summary.conversationId, summary.level, summary.conversationId, summary.level, keepPerLevel);
    });
  }
}

function toSummary(row: SummaryRow): StoredSummary {
  return {
    conversationId: row.conversation_id,
    level: row.level,
    sourceHash: row.source_hash,
    windowStart: row.window_start,
    windowEnd: row.window_end,
    sourceCount: row.source_count,
    summary: row.summary,
    model: row.model,
    generatedAt: row.generated_at,
  };
}
