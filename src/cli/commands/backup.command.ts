import { chmodSync, existsSync, statSync } from 'node:fs';
import { resolve } from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import type { Config } from '../../config/config.schema.js';
import { CliError } from '../cli-errors.js';
import { createProgress, formatBytes } from '../progress.js';
import { openStoreReadOnly, sqliteStoreFile } from '../sqlite-store-file.js';

/**
 * Copies the store with SQLite's online backup API: consistent, and safe while memsvc runs
 * (writers are not blocked; pages they change during the copy are copied again).
 */
export async function backup(config: Config, target: string, options: { force: boolean }): Promise<string> {
  const source = sqliteStoreFile(config, 'backup');
  const destination = resolve(target);
  if (!existsSync(source)) throw new CliError(`no store at ${source}: nothing to back up`);
  if (existsSync(destination) && !options.force) throw new CliError(`${destination} exists; use --force to overwrite it`);
  const db = new BetterSqlite3(source, { readonly: true, fileMustExist: true });
  const progress = createProgress(`backup ${destination}`);
  try {
    await db.backup(destination, {
      progress({ totalPages, remainingPages }) {
        progress.update(totalPages - remainingPages, totalPages, 'pages');
        return 1000;
      },
    });
  } finally {
    db.close();
  }
  chmodSync(destination, 0o600);
  const { db: copy, schemaVersion } = openStoreReadOnly(destination);
  try {
    const conversations = copy.prepare('SELECT count(*) FROM conversations').pluck().get() as number;
    const messages = copy.prepare('SELECT count(*) FROM messages').pluck().get() as number;
    const summary = `${conversations} conversations, ${messages} messages, schema ${schemaVersion}, ${formatBytes(statSync(destination).size)}`;
    progress.finish(summary);
    return summary;
  } finally {
    copy.close();
  }
}
