import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The dependency rules of CONTRIBUTING.md, checked over the import lines of src/. */

const SRC = fileURLToPath(new URL('../../src', import.meta.url));

interface Import { file: string; target: string }

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts') ? [path] : [];
  });
}

/** Every relative import of every source file, as paths under src/. */
function imports(): Import[] {
  return sourceFiles(SRC).flatMap((path) => {
    const text = readFileSync(path, 'utf8');
    return [...text.matchAll(/from '(\.{1,2}\/[^']+)'/g)].map((match) => ({
      file: relative(SRC, path),
      target: relative(SRC, resolve(dirname(path), match[1]!)),
    }));
  });
}

const featureOf = (path: string) => /^features\/([^/]+)\//.exec(path)?.[1];
/** What a feature shows others: its use cases and its wire contract. */
const PUBLIC_SURFACE = /\.(service|schemas|mappers)\.js$/;
/** The composition roots and the CLI's commands that pick a driver. */
const MAY_USE_ADAPTERS = /^(controller\.ts|storage\.ts|cli\/commands\/[^/]+\.ts|adapters\/)/;

test('a feature reaches another feature only through its service, schemas or mappers', () => {
  const all = imports();
  const crossing = all.filter(({ file, target }) => featureOf(target) && featureOf(target) !== featureOf(file)
    && !file.startsWith('controller.ts'));
  assert.ok(crossing.length > 0, 'the scan sees cross-feature imports at all (the MCP tools use the features)');
  const private_ = crossing.filter(({ target }) => !PUBLIC_SURFACE.test(target));
  assert.deepEqual(private_, [], 'imports of another feature\'s internals');
});

test('only the composition roots and the CLI commands import adapters', () => {
  const all = imports();
  const adapterImports = all.filter(({ target }) => target.startsWith('adapters/'));
  assert.ok(adapterImports.some(({ file }) => file === 'controller.ts'), 'the scan sees the controller import its adapters');
  assert.deepEqual(adapterImports.filter(({ file }) => !MAY_USE_ADAPTERS.test(file)), []);
});

test('the domain imports nothing internal but the domain', () => {
  const outside = imports().filter(({ file, target }) => file.startsWith('domain/') && !target.startsWith('domain/'));
  assert.deepEqual(outside, []);
});
