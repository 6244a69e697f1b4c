import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { chmodSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createPool } from '../../src/adapters/postgres/postgres-pool.js';
import { FakeBridge, unusedPort } from '../helpers/fake-bridge.js';
import { freshDatabase, REAL_SERVER_SKIP, type PostgresDatabase } from '../helpers/postgres-servers.js';
import { removeDir, startService, type RunningService } from '../helpers/service-harness.js';
import { waitFor } from '../helpers/wait-for.js';

/**
 * The postgres driver behind PgBouncer in transaction mode (Debian's pgbouncer, started here), where consecutive
 * transactions of one client may run on different server connections and a server connection serves many clients:
 * nothing may rely on session state. Two server connections for the whole service force that sharing.
 */
const PGBOUNCER = spawnSync('sh', ['-c', 'command -v pgbouncer'], { encoding: 'utf8' }).stdout.trim();
const skip = REAL_SERVER_SKIP || (PGBOUNCER === '' ? 'pgbouncer is not installed (apt-get install pgbouncer)' : false);
if (skip) console.log(`# SKIP ${skip}`);

describe('the postgres driver through PgBouncer in transaction mode', { skip }, () => {
  let database: PostgresDatabase;
  let bouncer: ChildProcess;
  let bridge: FakeBridge;
  let service: RunningService;
  let url: string;
  const dir = mkdtempSync(join(tmpdir(), 'memsvc-pgbouncer-'));

  before(async () => {
    database = await freshDatabase();
    const server = new URL(database.url);
    const port = await unusedPort();
    writeFileSync(join(dir, 'users.txt'), `"${server.username || 'postgres'}" ""\n`);
    writeFileSync(join(dir, 'pgbouncer.ini'), [
      '[databases]',
      `* = host=${server.hostname} port=${server.port || 5432}`,
      '[pgbouncer]',
      'listen_addr = 127.0.0.1',
      `listen_port = ${port}`,
      'unix_socket_dir =',
      'auth_type = trust',
      `auth_file = ${join(dir, 'users.txt')}`,
      'pool_mode = transaction',
      'default_pool_size = 2',
      'max_client_conn = 200',
      'ignore_startup_parameters = extra_float_digits',
      `logfile = ${join(dir, 'pgbouncer.log')}`,
    ].join('\n'));
    chmodSync(dir, 0o777);
    // PgBouncer refuses to run as root: it drops to the postgres user when started as root.
    const asRoot = process.getuid?.() === 0;
    bouncer = spawn(PGBOUNCER, [...(asRoot ? ['-u', 'postgres'] : []), join(dir, 'pgbouncer.ini')], { stdio: 'ignore' });
    server.host = `127.0.0.1:${port}`;
    url = server.toString();
    await waitFor(async () => {
      const pool = createPool(url, 1);
      try { return (await pool.query('SELECT 1 AS one')).rows[0]; } catch { return null; } finally { await pool.end(); }
    }, { what: 'PgBouncer to accept connections', until: (row) => row !== null, timeoutMs: 20_000 });
    bridge = await new FakeBridge().start();
    service = await startService({ bridge: { url: bridge.url },
      overrides: { storage: { driver: 'postgres', url, pool_size: 6 }, embedding_worker: { enabled: true } } });
  });
  after(async () => {
    await service?.stop();
    await bridge?.stop();
    bouncer?.kill('SIGTERM');
    await database?.stop();
    removeDir(dir);
  });

  test('writes, searches in every mode, context and a rebuild all answer, and no setting leaks to the shared connections', async () => {
    for (let i = 0; i < 12; i += 1) {
      const created = await service.api('POST', '/api/v1/conversations', { label: `trip ${i}`, folder: i % 2 ? '/travel' : '/work',
        messages: [{ role: 'user', content: `The ferry to island ${i} leaves at dawn` }, { role: 'assistant', content: `Pack a raincoat for island ${i}` }] });
      assert.equal(created.status, 201);
    }
    await service.waitForEmbeddings(60_000);
    await Promise.all(Array.from({ length: 8 }, async (_, i) => {
      for (const body of [
        { query: `ferry island ${i}`, mode: 'semantic', limit: 5 },
        { query: `ferry island ${i}`, mode: 'semantic', limit: 5, filters: { folder: '/travel' } },
        { query: `when does the ferry leave`, limit: 5 },
        { query: `raincoat`, mode: 'keyword', limit: 5, filters: { folder: '/work' } },
      ]) {
        const answer = await service.api('POST', '/api/v1/query', body);
        assert.equal(answer.status, 200, JSON.stringify(answer.body));
        assert.ok(answer.body.results.length > 0, JSON.stringify(body));
      }
      const context = await service.api('POST', '/api/v1/context/assemble', { query: 'what should I pack for the ferry?' });
      assert.equal(context.status, 200);
    }));
    const rebuild = await service.api('POST', '/api/v1/rebuild-embeddings');
    assert.ok([200, 202].includes(rebuild.status), JSON.stringify(rebuild.body));
    await service.waitForEmbeddings(60_000);
    // Each of the two server connections, as the next client gets it: the searches' SET LOCAL ended with their transactions.
    const probe = createPool(url, 2);
    try {
      const settings = await Promise.all([0, 1].map(() => probe.query<{ ef: string; scan: string }>(
        `SELECT current_setting('hnsw.ef_search', true) AS ef, current_setting('hnsw.iterative_scan', true) AS scan`)));
      // pgvector's defaults (null where the connection never loaded pgvector).
      for (const { rows } of settings) {
        assert.ok([null, '40'].includes(rows[0]!.ef) && [null, 'off'].includes(rows[0]!.scan), JSON.stringify(rows[0]));
      }
    } finally {
      await probe.end();
    }
  });
});
