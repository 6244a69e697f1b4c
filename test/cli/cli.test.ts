import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import { MIGRATIONS } from '../../src/adapters/sqlite/sqlite-migrations.js';
import { unusedPort } from '../helpers/fake-bridge.js';
import { cliEnv, runCli } from './cli-runner.js';
import { removeDir, type RunningService, startService } from '../helpers/service-harness.js';

const record = (i: number, folder = '/imported') => ({
  label: `imported ${i}`, folder,
  messages: [{ role: 'user', content: `ticket ${i}: the nightly invoice job timed out on the ledger database` }],
});

/** One line, no stack trace. */
const assertOneLineError = (stderr: string) => {
  const lines = stderr.trim().split('\n');
  assert.equal(lines.length, 1, `one line: ${stderr}`);
  assert.match(lines[0]!, /^memsvc: /);
  assert.doesNotMatch(stderr, /\n\s+at /);
};

describe('memsvc command line', () => {
  test('--help and --version exit 0; unknown commands and bad options exit 1 with one line', async () => {
    const env = cliEnv({});
    const help = await runCli(['--help'], env);
    assert.equal(help.code, 0);
    for (const command of ['start', 'mcp', 'import', 'export', 'search', 'context', 'stats', 'backup', 'restore', 'key', 'doctor', 'migrate']) {
      assert.match(help.stdout, new RegExp(`\\n  ${command}\\b`), command);
    }
    const version = await runCli(['--version'], env);
    assert.equal(version.code, 0);
    assert.equal(version.stdout.trim(), JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')).version);
    const unknown = await runCli(['frobnicate'], env);
    assert.equal(unknown.code, 1);
    assertOneLineError(unknown.stderr);
    const badOption = await runCli(['search', 'x', '--limit', 'many'], env);
    assert.equal(badOption.code, 1);
    assertOneLineError(badOption.stderr);
  });

  test('a command that needs the service says it is not running, in one line', async () => {
    const env = cliEnv({ MEMSVC_API_KEY: 'k', MEMSVC_PORT: String(await unusedPort()) });
    const result = await runCli(['stats'], env);
    assert.equal(result.code, 1);
    assertOneLineError(result.stderr);
    assert.match(result.stderr, /not running/);
  });

  test('migrate creates and migrates a store, then finds nothing to do', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'memsvc-cli-migrate-'));
    try {
      const env = cliEnv({ MEMSVC_DATA_DIR: dataDir });
      const first = await runCli(['migrate'], env);
      assert.equal(first.code, 0, first.stderr);
      assert.match(first.stdout, new RegExp(`${MIGRATIONS.length} migrations applied`));
      const second = await runCli(['migrate'], env);
      assert.match(second.stdout, /already up to date/);
    } finally {
      removeDir(dataDir);
    }
  });

  test('key show prints the stored key; rotate writes a new one with mode 0600', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'memsvc-cli-key-'));
    try {
      const env = cliEnv({ MEMSVC_DATA_DIR: dataDir });
      const missing = await runCli(['key', 'show'], env);
      assert.equal(missing.code, 1);
      assertOneLineError(missing.stderr);
      const rotated = await runCli(['key', 'rotate'], env);
      assert.equal(rotated.code, 0, rotated.stderr);
      const key = readFileSync(join(dataDir, 'api_key'), 'utf8').trim();
      assert.match(key, /^msk_/);
      assert.equal(statSync(join(dataDir, 'api_key')).mode & 0o777, 0o600);
      assert.equal((await runCli(['key', 'show'], env)).stdout.trim(), key);
      const configured = await runCli(['key', 'rotate'], { ...env, MEMSVC_API_KEY: 'from-env' });
      assert.equal(configured.code, 1);
      assert.match(configured.stderr, /configuration/);
    } finally {
      removeDir(dataDir);
    }
  });
});

describe('memsvc command line against a running service', () => {
  let server: RunningService;
  let env: NodeJS.ProcessEnv;
  let work: string;
  before(async () => {
    server = await startService({ overrides: { embedding_worker: { enabled: true } } });
    work = mkdtempSync(join(tmpdir(), 'memsvc-cli-'));
    env = cliEnv({ MEMSVC_DATA_DIR: server.dataDir, MEMSVC_API_KEY: server.apiKey, MEMSVC_MCP_SERVER_URL: server.baseUrl });
  });
  after(async () => {
    await server.stop();
    removeDir(server.dataDir);
    removeDir(work);
  });

  test('import streams jsonl and json files in batches; a bad record stops it with one line', async () => {
    const jsonl = join(work, 'many.jsonl');
    writeFileSync(jsonl, Array.from({ length: 45 }, (_, i) => JSON.stringify(record(i))).join('\n') + '\n');
    const json = join(work, 'doc.json');
    writeFileSync(json, JSON.stringify({ format: 'json', version: 1, conversations: Array.from({ length: 7 }, (_, i) => record(100 + i, '/doc')) }));
    const result = await runCli(['import', jsonl, json, '--batch-size', '10'], env, work);
    assert.equal(result.code, 0, result.stderr);
    assert.match(result.stdout, /imported 52 conversations \(52 messages\)/);
    // Not a terminal: progress comes as plain lines, one per batch.
    assert.ok(result.stderr.split('\n').filter((line) => line.startsWith(`import ${jsonl}: `)).length >= 5, result.stderr);
    assert.equal((await server.api('GET', '/api/v1/conversations/count?folder=/imported')).body.count, 45);

    const bad = join(work, 'bad.jsonl');
    writeFileSync(bad, `${JSON.stringify(record(1))}\n{"label": "broken"\n`);
    const refused = await runCli(['import', bad], env, work);
    assert.equal(refused.code, 1);
    assertOneLineError(refused.stderr.split('\n').filter((line) => line.startsWith('memsvc:')).join('\n'));
    assert.match(refused.stderr, /line 2 is not valid JSON/);
  });

  test('import overlaps two batches, each stored only after the one before: a refused batch stops it, nothing after it goes in', async () => {
    const file = join(work, 'refused-middle.jsonl');
    const lines = Array.from({ length: 50 }, (_, i) => JSON.stringify(record(i, '/middle')));
    // Record 25 (the third batch of ten) names a role the service refuses: the whole batch is refused.
    lines[25] = JSON.stringify({ label: 'bad role', folder: '/middle', messages: [{ role: 'robot', content: 'beep' }] });
    writeFileSync(file, lines.join('\n') + '\n');
    const result = await runCli(['import', file, '--batch-size', '10'], env, work);
    assert.equal(result.code, 1, result.stdout);
    assert.match(result.stderr, /records from line 21 on were refused \(20 conversations imported before\)/);
    assert.equal((await server.api('GET', '/api/v1/conversations/count?folder=/middle')).body.count, 20);
  });

  test('a record that cannot be read stops the import once the batch in flight is stored', async () => {
    const file = join(work, 'unreadable-after-a-batch.jsonl');
    const lines = Array.from({ length: 11 }, (_, i) => JSON.stringify(record(i, '/unreadable')));
    writeFileSync(file, `${lines.join('\n')}\n{"label": "broken"\n`);
    const result = await runCli(['import', file, '--batch-size', '10'], env, work);
    assert.equal(result.code, 1, result.stdout);
    assert.match(result.stderr, /line 12 is not valid JSON/);
    // The first ten were sent while line 11 was read; the eleventh never was.
    assert.equal((await server.api('GET', '/api/v1/conversations/count?folder=/unreadable')).body.count, 10);
  });

  test('key create prints a working secret once; list shows it without a secret; revoke ends it', async () => {
    const created = await runCli(['key', 'create', 'cli-tenant', '--grant', '/cli/t:write', '--grant', '/cli/kb', '--json'], env);
    assert.equal(created.code, 0, created.stderr);
    const key = JSON.parse(created.stdout);
    assert.deepEqual(key.grants, [{ folder: '/cli/t', access: 'write' }, { folder: '/cli/kb', access: 'read' }]);
    const me = await server.api('GET', '/api/v1/keys/me', undefined, { authorization: `Bearer ${key.key}` });
    assert.equal(me.body.id, key.id);
    const listed = await runCli(['key', 'list'], env);
    assert.match(listed.stdout, new RegExp(`${key.id}  cli-tenant  /cli/t:write,/cli/kb:read`));
    assert.ok(!listed.stdout.includes(key.key.split('.')[1]), 'no secret in the listing');
    const revoked = await runCli(['key', 'revoke', key.id], env);
    assert.equal(revoked.code, 0, revoked.stderr);
    assert.equal((await server.api('GET', '/api/v1/keys/me', undefined, { authorization: `Bearer ${key.key}` })).status, 401);
    const bad = await runCli(['key', 'create', 'x', '--grant', 'no-slash'], env);
    assert.equal(bad.code, 1);
    assertOneLineError(bad.stderr);
  });

  test('search, context and stats print what the API answers', async () => {
    await server.api('POST', '/api/v1/conversations', {
      label: 'ledger', folder: '/ops', messages: [{ role: 'user', content: 'The reconciliation of the ledger found three duplicate invoices' }],
    });
    const found = await runCli(['search', 'duplicate invoices reconciliation', '--mode', 'keyword', '--folder', '/ops', '--json'], env);
    assert.equal(found.code, 0, found.stderr);
    assert.equal(JSON.parse(found.stdout).results[0].label, 'ledger');
    const text = await runCli(['search', 'duplicate invoices', '--mode', 'keyword', '--folder', '/ops'], env);
    assert.match(text.stdout, /ledger \(\/ops\)/);
    const context = await runCli(['context', 'ledger duplicate invoices', '--budget', '500'], env);
    assert.equal(context.code, 0, context.stderr);
    assert.match(context.stdout, /three duplicate invoices/);
    const stats = await runCli(['stats', '--json'], env);
    assert.equal(JSON.parse(stats.stdout).total_conversations, (await server.api('GET', '/stats')).body.total_conversations);
  });

  test('export writes the folder to a file; json export re-imports as is', async () => {
    await server.api('POST', '/api/v1/conversations', { label: 'exp a', folder: '/exp', messages: [{ role: 'user', content: 'alpha' }] });
    await server.api('POST', '/api/v1/conversations', { label: 'exp b', folder: '/exp/sub', messages: [{ role: 'user', content: 'beta' }] });
    const file = join(work, 'exp.jsonl');
    const result = await runCli(['export', '--folder', '/exp', '-o', file], env);
    assert.equal(result.code, 0, result.stderr);
    const lines = readFileSync(file, 'utf8').trim().split('\n').map((line) => JSON.parse(line));
    assert.deepEqual(lines.map((r) => r.label).sort(), ['exp a', 'exp b']);
    assert.equal(statSync(file).mode & 0o777, 0o600);
    const again = await runCli(['import', file], env);
    assert.match(again.stdout, /imported 0 conversations .* skipped 2/);
  });

  test('backup copies the live store; restore is refused while it is open, and works once it is closed', async () => {
    const copy = join(work, 'backup.db');
    const backup = await runCli(['backup', copy], env);
    assert.equal(backup.code, 0, backup.stderr);
    const stored = (await server.api('GET', '/stats')).body.total_conversations as number;
    const db = new BetterSqlite3(copy, { readonly: true });
    assert.equal(db.prepare('SELECT count(*) FROM conversations').pluck().get(), stored);
    db.close();
    assert.equal(statSync(copy).mode & 0o777, 0o600);
    const overwrite = await runCli(['backup', copy], env);
    assert.equal(overwrite.code, 1);
    assertOneLineError(overwrite.stderr);

    const refused = await runCli(['restore', copy], env);
    assert.equal(refused.code, 1);
    assert.match(refused.stderr, /in use/);

    await server.api('POST', '/api/v1/conversations', { label: 'after the backup', messages: [] });
    assert.equal((await server.api('GET', '/api/v1/conversations?label=after%20the%20backup')).body.total, 1, 'control: the probe below sees it');
    await server.stop({ keepData: true });
    const restored = await runCli(['restore', copy], env);
    assert.equal(restored.code, 0, restored.stderr);
    server = await startService({ dataDir: server.dataDir });
    env.MEMSVC_MCP_SERVER_URL = server.baseUrl;
    assert.equal((await server.api('GET', '/stats')).body.total_conversations, stored);
    assert.equal((await server.api('GET', '/api/v1/conversations?label=after%20the%20backup')).body.total, 0);
  });

  test('doctor reports the running service and exits 0; a port taken by another program is a failure', async () => {
    const healthy = await runCli(['doctor'], env);
    assert.equal(healthy.code, 0, healthy.stdout + healthy.stderr);
    assert.match(healthy.stdout, /ok +service: memsvc is running/);
    assert.match(healthy.stdout, /disk space: /);

    const squatter: Server = createServer((socket) => socket.end('HTTP/1.1 200 OK\r\ncontent-length: 2\r\n\r\nhi'));
    await new Promise<void>((resolve) => squatter.listen(0, '127.0.0.1', resolve));
    const port = (squatter.address() as { port: number }).port;
    try {
      const taken = await runCli(['doctor'], { ...env, MEMSVC_MCP_SERVER_URL: '', MEMSVC_PORT: String(port) });
      assert.equal(taken.code, 1);
      assert.match(taken.stdout, /FAIL +port: .* not as memsvc\n +fix: /);
    } finally {
      squatter.close();
    }
    assert.ok(existsSync(server.dataDir));
  });

  test('doctor: an unreadable certificate fails naming the setting; clear text beyond loopback is a warning', async () => {
    const badTls = await runCli(['doctor'], { ...env, MEMSVC_SERVER_TLS_CERT_FILE: '/nonexistent/cert.pem',
      MEMSVC_SERVER_TLS_KEY_FILE: '/nonexistent/key.pem' });
    assert.equal(badTls.code, 1);
    assert.match(badTls.stdout, /FAIL +tls: server\.tls\.cert_file: cannot read \/nonexistent\/cert\.pem: ENOENT/);
    const exposed = await runCli(['doctor'], { ...env, MEMSVC_SERVER_HOST: '0.0.0.0' });
    assert.match(exposed.stdout, /warn +network: API on 0\.0\.0\.0 without TLS/);
  });
});

describe('memsvc import of a file far larger than one request may be', () => {
  let server: RunningService;
  let work: string;
  before(async () => {
    server = await startService({ overrides: { server: { body_limit_bytes: 64 * 1024 } } });
    work = mkdtempSync(join(tmpdir(), 'memsvc-cli-big-'));
  });
  after(async () => {
    await server.stop();
    removeDir(work);
  });

  test('a json document 10x the body limit is streamed in batches that each fit', async () => {
    const padding = 'x'.repeat(2000);
    const conversations = Array.from({ length: 400 }, (_, i) => ({
      label: `big ${i}`, folder: '/big', messages: [{ role: 'user', content: `record ${i} ${padding}` }],
    }));
    const file = join(work, 'big.json');
    writeFileSync(file, JSON.stringify({ format: 'json', version: 1, conversations }));
    assert.ok(statSync(file).size > 10 * 64 * 1024);
    const env = cliEnv({ MEMSVC_API_KEY: server.apiKey, MEMSVC_MCP_SERVER_URL: server.baseUrl });
    const result = await runCli(['import', file, '--batch-size', '20'], env);
    assert.equal(result.code, 0, result.stderr);
    assert.equal((await server.api('GET', '/api/v1/conversations/count?folder=/big')).body.count, 400);
  });
});
