import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { ValidationError } from './errors.js';
import { isInFolder, normalizeFolder, ROOT_FOLDER } from './folder-path.js';

const limits = { maxChars: 64, maxDepth: 4 };
const normalize = (input: string) => normalizeFolder(input, limits);

function assertInvalid(input: string, message: RegExp, field?: string): void {
  assert.throws(() => normalizeFolder(input, limits, field), (error: unknown) => {
    assert.ok(error instanceof ValidationError, `${JSON.stringify(input)} threw ${String(error)}`);
    assert.equal(error.kind, 'invalid_input');
    assert.equal(error.code, 'INVALID_FOLDER');
    assert.equal(error.field, field ?? 'folder');
    assert.match(error.message, message);
    return true;
  }, JSON.stringify(input));
}

describe('normalizeFolder', () => {
  it('keeps canonical paths as they are', () => {
    assert.equal(normalize('/'), '/');
    assert.equal(normalize('/work'), '/work');
    assert.equal(normalize('/work/backend'), '/work/backend');
    assert.equal(normalize('/with space/ünïcode'), '/with space/ünïcode');
  });

  it('folds repeated and trailing slashes and trims the whole path', () => {
    assert.equal(normalize('/work//backend/'), '/work/backend');
    assert.equal(normalize('///work///'), '/work');
    assert.equal(normalize('  /work/  '), '/work');
    assert.equal(normalize('//'), ROOT_FOLDER);
    assert.equal(normalize(''), ROOT_FOLDER);
    assert.equal(normalize('   '), ROOT_FOLDER);
  });

  it('requires a leading slash', () => {
    assertInvalid('work', /must start with "\/"/);
    assertInvalid('work/backend', /must start with "\/"/);
  });

  it('rejects . and .. segments instead of resolving them', () => {
    for (const input of ['/.', '/..', '/work/.', '/work/../etc', '/./work', '/a/b/../../..']) {
      assertInvalid(input, /"\." or "\.\."/);
    }
    assert.equal(normalize('/.hidden/..dots'), '/.hidden/..dots', 'dots inside a name are fine');
  });

  it('rejects control characters, backslashes and padded segments', () => {
    assertInvalid('/a\u0000b', /control characters/);
    assertInvalid('/a\nb', /control characters/);
    assertInvalid('/a\\b', /backslashes/);
    assertInvalid('/work/ backend', /spaces/);
    assertInvalid('/work /backend', /spaces/);
  });

  it('enforces the length and depth limits', () => {
    assert.equal(normalize(`/${'a'.repeat(63)}`).length, 64);
    assertInvalid(`/${'a'.repeat(64)}`, /longer than 64/);
    assert.equal(normalize('/a/b/c/d'), '/a/b/c/d');
    assertInvalid('/a/b/c/d/e', /deeper than 4/);
  });

  it('names the field in its messages', () => {
    assertInvalid('relative', /^filters\.folder /, 'filters.folder');
  });
});

describe('isInFolder', () => {
  it('matches the folder itself and everything below it', () => {
    assert.equal(isInFolder('/work', '/work'), true);
    assert.equal(isInFolder('/work/backend', '/work'), true);
    assert.equal(isInFolder('/work/backend/db', '/work'), true);
  });

  it('matches on segment boundaries only', () => {
    assert.equal(isInFolder('/workshop', '/work'), false);
    assert.equal(isInFolder('/work-notes', '/work'), false);
    assert.equal(isInFolder('/wor', '/work'), false);
    assert.equal(isInFolder('/work', '/work/backend'), false);
  });

  it('everything is in the root', () => {
    assert.equal(isInFolder('/', ROOT_FOLDER), true);
    assert.equal(isInFolder('/anything/deep', ROOT_FOLDER), true);
  });
});
