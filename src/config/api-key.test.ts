import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { chmod, mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { API_KEY_FILE, resolveApiKey } from './api-key.js';

describe('resolveApiKey', () => {
  let root: string;
  let n = 0;
  const freshDir = () => join(root, `data-${(n += 1)}`);
  before(async () => { root = await mkdtemp(join(tmpdir(), 'memsvc-key-')); });
  after(() => rm(root, { recursive: true, force: true }));

  it('generates a strong key into data_dir/api_key with mode 0600, creating the directory', async () => {
    const dir = freshDir();
    const resolved = resolveApiKey('', dir);
    assert.equal(resolved.generated, true);
    assert.equal(resolved.file, join(dir, API_KEY_FILE));
    assert.match(resolved.key, /^msk_[A-Za-z0-9_-]{43}$/);
    assert.equal((await readFile(resolved.file!, 'utf8')).trim(), resolved.key);
    assert.equal((await stat(resolved.file!)).mode & 0o777, 0o600);
  });

  it('reuses the stored key on the next start', () => {
    const dir = freshDir();
    const first = resolveApiKey('', dir);
    const second = resolveApiKey('', dir);
    assert.equal(second.key, first.key);
    assert.equal(second.generated, false);
    assert.equal(second.file, first.file);
  });

  it('generates different keys for different data dirs', () => {
    assert.notEqual(resolveApiKey('', freshDir()).key, resolveApiKey('', freshDir()).key);
  });

  it('a configured key wins and no file is written', () => {
    const dir = freshDir();
    const resolved = resolveApiKey('configured-key-0123456789abcdef01234567', dir);
    assert.deepEqual(resolved, { key: 'configured-key-0123456789abcdef01234567', generated: false });
    assert.equal(existsSync(join(dir, API_KEY_FILE)), false);
  });

  it('a configured key wins over a stored one', () => {
    const dir = freshDir();
    resolveApiKey('', dir);
    assert.equal(resolveApiKey('configured', dir).key, 'configured');
  });

  it('tightens a stored key file that others can read', async () => {
    const dir = freshDir();
    const { file, key } = resolveApiKey('', dir);
    await chmod(file!, 0o644);
    assert.equal(resolveApiKey('', dir).key, key);
    assert.equal((await stat(file!)).mode & 0o777, 0o600);
  });

  it('replaces an empty key file with a new key', async () => {
    const dir = freshDir();
    const { file } = resolveApiKey('', dir);
    await writeFile(file!, '\n');
    const resolved = resolveApiKey('', dir);
    assert.equal(resolved.generated, true);
    assert.match(resolved.key, /^msk_/);
    assert.equal((await readFile(file!, 'utf8')).trim(), resolved.key);
  });
});
