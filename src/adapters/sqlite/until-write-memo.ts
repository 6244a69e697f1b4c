import type { Database, Statement } from 'better-sqlite3';

/**
 * Values remembered until the database changes: total_changes() counts this connection's inserted, updated
 * and deleted rows, and data_version moves when another connection commits, so any write ends them all.
 * For reads that broad filters repeat (context assembly's archived: false) and only a write can change.
 */
export class UntilWriteMemo<V> {
  private readonly version: Statement;
  private readonly values = new Map<string, V>();
  private rememberedAt = '';

  /** @param maxEntries values kept at most between two writes */
  constructor(db: Database, private readonly maxEntries = 256) {
    this.version = db.prepare(`SELECT total_changes() || ':' || data_version FROM pragma_data_version`).pluck();
  }

  get(key: string, compute: () => V): V {
    const version = this.version.get() as string;
    if (version !== this.rememberedAt || this.values.size >= this.maxEntries) {
      this.values.clear();
      this.rememberedAt = version;
    }
    let value = this.values.get(key);
    if (value === undefined) {
      value = compute();
      this.values.set(key, value);
    }
    return value;
  }
}
