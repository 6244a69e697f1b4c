import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openSqliteConnection, openSqliteReader } from './sqlite-database.js';

test('the request thread connection reads, and refuses every write, while another connection writes', () => {
  const dir = mkdtempSync(join(tmpdir(), 'memsvc-reader-'));
  const file = join(dir, 'memsvc.db');
  const reader = openSqliteReader(file);
  const writer = openSqliteConnection(file);
  try {
    const now = '2026-05-01T10:00:00.000Z';
    const insert = `INSERT INTO conversations (id, label, created_at, updated_at, last_accessed_at) VALUES (?, 'x', ?, ?, ?)`;
    assert.throws(() => reader.prepare(insert).run('a', now, now, now), (error: unknown) =>
      (error as { code?: string }).code === 'SQLITE_READONLY');
    writer.prepare(insert).run('b', now, now, now);
    assert.deepEqual(reader.prepare('SELECT id FROM conversations').pluck().all(), ['b'], 'the reader sees what the writer stored');
  } finally {
    writer.close();
    reader.close();
    rmSync(dir, { recursive: true, force: true });
  }
});
