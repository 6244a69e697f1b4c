import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { removeDir } from '../helpers/service-harness.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const run = promisify(execFile);

/** Runs the real command line; resolves with its exit code and output (it never throws for a non-zero exit). */
async function memsvc(args: string[], env: NodeJS.ProcessEnv): Promise<{ code: number; stderr: string }> {
  const dataDir = mkdtempSync(join(tmpdir(), 'memsvc-refusal-'));
  try {
    await run(process.execPath, ['--import', 'tsx', 'src/cli.ts', ...args], {
      cwd: ROOT, timeout: 60_000,
      env: { ...process.env, MEMSVC_CONFIG: '/nonexistent', MEMSVC_DATA_DIR: dataDir, MEMSVC_PORT: '0', MEMSVC_BRIDGE_START: 'false', ...env },
    });
    return { code: 0, stderr: '' };
  } catch (error) {
    const failed = error as { code: number; stderr: string };
    return { code: failed.code, stderr: failed.stderr };
  } finally {
    removeDir(dataDir);
  }
}

/** Misconfigured scale-out set-ups stop at once with one line saying what to set, before touching any database. */
describe('start-up refusals for the postgres driver', () => {
  test('a postgres replica without a configured API key refuses to start: it never generates its own', async () => {
    const { code, stderr } = await memsvc(['start'], {
      MEMSVC_STORAGE_DRIVER: 'postgres', MEMSVC_STORAGE_URL: 'postgres://127.0.0.1:1/none', MEMSVC_API_KEY: '',
    });
    assert.equal(code, 1);
    assert.match(stderr, /storage\.driver is postgres: set server\.api_key \(MEMSVC_API_KEY\), the same on every replica/);
  });

  test('the postgres driver without storage.url is a configuration error', async () => {
    const { code, stderr } = await memsvc(['start'], { MEMSVC_STORAGE_DRIVER: 'postgres', MEMSVC_API_KEY: 'k'.repeat(32) });
    assert.equal(code, 1);
    assert.match(stderr, /storage\.url \(MEMSVC_STORAGE_URL\) is required when storage\.driver is postgres/);
  });

  test('migrate --to takes only a postgres:// connection string', async () => {
    const { code, stderr } = await memsvc(['migrate', '--to', 'mysql://db/memsvc'], {});
    assert.equal(code, 1);
    assert.equal(stderr.trim(), 'memsvc: --to takes a postgres:// connection string');
  });
});
