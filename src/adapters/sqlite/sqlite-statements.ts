import type { Database, Statement } from 'better-sqlite3';

/** Prepared statements by SQL text: a request parses its SQL once per connection, not once per call. */
export class StatementCache {
  private readonly statements = new Map<string, Statement>();

  constructor(private readonly db: Database) {}

  get(sql: string): Statement {
    let statement = this.statements.get(sql);
    if (!statement) {
      statement = this.db.prepare(sql);
      this.statements.set(sql, statement);
    }
    return statement;
  }
}

/**
 * `column IN (...)` for any number of keys with one bound parameter (a JSON
 * array), so the SQL text, and with it the prepared statement, stays the same.
 */
export const inKeys = (column: string) => `${column} IN (SELECT value FROM json_each(?))`;
export const keysParam = (keys: readonly number[]) => JSON.stringify(keys);
