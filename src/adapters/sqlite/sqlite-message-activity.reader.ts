import type { Database } from 'better-sqlite3';
import type { MessageActivityReader } from '../../ports/message-activity-reader.js';
import { folderWithin } from '../sql/filter-sql.js';

/** Messages per UTC day from the timestamp index (timestamps are stored as ISO 8601 UTC, so the day is the first 10 characters). */
export class SqliteMessageActivityReader implements MessageActivityReader {
  constructor(private readonly db: Database) {}

  async messagesPerDay(since: string, within?: readonly string[]) {
    if (within === undefined) {
      return this.db.prepare(`SELECT substr(timestamp, 1, 10) AS date, count(*) AS messages FROM messages
        WHERE timestamp >= ? GROUP BY date ORDER BY date`).all(since) as Array<{ date: string; messages: number }>;
    }
    const scope = folderWithin('c.folder', within);
    return this.db.prepare(`SELECT substr(m.timestamp, 1, 10) AS date, count(*) AS messages
      FROM conversations c JOIN messages m ON m.conversation_id = c.id
      WHERE ${scope.sql} AND m.timestamp >= ? GROUP BY date ORDER BY date`).all(...scope.params, since) as Array<{ date: string; messages: number }>;
  }
}
