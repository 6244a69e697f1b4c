import { copyFileSync, chmodSync, existsSync, renameSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { Config } from '../../config/config.schema.js';
import { MIGRATIONS } from '../../adapters/sqlite/sqlite-migrations.js';
import { VECTOR_INDEX_DIR } from '../../adapters/sqlite/sqlite-storage.js';
import { CliError } from '../cli-errors.js';
import { openStoreReadOnly, sqliteStoreFile, storeInUse } from '../sqlite-store-file.js';

/**
 * Replaces the store with a backup. Refused while memsvc has the store open. The current store is
 * kept beside it as memsvc.db.before-restore-<time>, and the vector index is dropped so the next
 * start rebuilds it from the restored vectors.
 */
export function restore(config: Config, backupFile: string, now = new Date()): string {
  const target = sqliteStoreFile(config, 'restore');
  const source = resolve(backupFile);
  const { db, schemaVersion } = openStoreReadOnly(source);
  const conversations = db.prepare('SELECT count(*) FROM conversations').pluck().get() as number;
  const check = db.pragma('quick_check', { simple: true });
  db.close();
  if (check !== 'ok') throw new CliError(`${source} is damaged (quick_check: ${String(check)})`);
  const newest = Math.max(...MIGRATIONS.map((m) => m.version));
  if (schemaVersion > newest) {
    throw new CliError(`${source} is from a newer memsvc (schema ${schemaVersion}, this one knows ${newest}); upgrade first`);
  }
  if (storeInUse(target)) throw new CliError(`the store ${target} is in use: stop memsvc (and memsvc mcp) before restoring`);

  let kept = '';
  if (existsSync(target)) {
    kept = `${target}.before-restore-${now.toISOString().replace(/[:.]/g, '-')}`;
    // With its write-ahead log, which may hold the newest commits after a crash.
    for (const suffix of ['', '-wal', '-shm']) {
      if (existsSync(`${target}${suffix}`)) renameSync(`${target}${suffix}`, `${kept}${suffix}`);
    }
  }
  copyFileSync(source, `${target}.restoring`);
  chmodSync(`${target}.restoring`, 0o600);
  renameSync(`${target}.restoring`, target);
  rmSync(join(config.server.data_dir, VECTOR_INDEX_DIR), { recursive: true, force: true });
  return `restored ${conversations} conversations (schema ${schemaVersion}) into ${target}` +
    (kept ? `; the previous store is kept as ${kept}` : '') + '; schema migrations and the vector index are brought up to date at the next start';
}
