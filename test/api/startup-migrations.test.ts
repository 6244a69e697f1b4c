import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import { migrate, MIGRATIONS } from '../../src/adapters/sqlite/sqlite-migrations.js';
import { DATABASE_FILE } from '../../src/adapters/sqlite/sqlite-storage.js';
import { startService } from '../helpers/service-harness.js';

/**
 * A store from an earlier version is migrated when the controller opens it, before it listens. A migration may
 * rebuild an index for a minute on a large store, so the controller's log says which one runs and how long it took.
 */
test('opening an older store logs each migration it applies, then serves', async () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'memsvc-startup-migrations-'));
  try {
    const older = new BetterSqlite3(join(dataDir, DATABASE_FILE));
    migrate(older, MIGRATIONS.filter((migration) => migration.version < 6));
    older.close();
    const lines: Array<{ msg: string; version?: number; name?: string; ms?: number }> = [];
    const service = await startService({
      dataDir, logger: { level: 'info', stream: { write: (line: string) => { lines.push(JSON.parse(line)); } } },
    });
    try {
      const migrations = lines.filter((line) => line.msg.includes('schema migration'));
      assert.deepEqual(migrations.map((line) => [line.msg, line.version, line.name]), [
        ['applying a schema migration', 6, 'full-text prefix index'],
        ['schema migration applied', 6, 'full-text prefix index'],
        ['applying a schema migration', 7, 'vector keys index'],
        ['schema migration applied', 7, 'vector keys index'],
        ['applying a schema migration', 8, 'pinned conversations newest first'],
        ['schema migration applied', 8, 'pinned conversations newest first'],
        ['applying a schema migration', 9, 'new messages counted by their statements'],
        ['schema migration applied', 9, 'new messages counted by their statements'],
        ['applying a schema migration', 10, 'message deletions counted'],
        ['schema migration applied', 10, 'message deletions counted'],
        ['applying a schema migration', 11, 'API keys'],
        ['schema migration applied', 11, 'API keys'],
        ['applying a schema migration', 12, 'message author names'],
        ['schema migration applied', 12, 'message author names'],
      ]);
      assert.equal(typeof migrations[1]!.ms, 'number');
      assert.equal((await service.api('GET', '/health')).status, 200);
    } finally {
      await service.stop({ keepData: true });
    }
    // Opened again, nothing is pending and nothing is said.
    const quiet: string[] = [];
    const again = await startService({ dataDir, logger: { level: 'info', stream: { write: (line: string) => { quiet.push(line); } } } });
    await again.stop({ keepData: true });
    assert.equal(quiet.filter((line) => line.includes('schema migration')).length, 0);
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
});
