import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The adapters' dependency rules, over the import lines of src/: a framework is imported by its own
 * adapter only (so a user who does not import `memsvc/<adapter>` never loads it), and the adapters reach
 * the service only through the typed client.
 */

const SRC = fileURLToPath(new URL('../../src', import.meta.url));
const FRAMEWORKS: Record<string, RegExp> = {
  'ai-sdk': /^(ai|@ai-sdk\/[^/]+)(\/|$)/,
  langchain: /^@langchain\//,
  'openai-agents': /^@openai\/agents/,
  mastra: /^@mastra\//,
};

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts') ? [path] : [];
  });
}

/** Every import specifier (static, dynamic, type-only) of every source file. */
const imports = sourceFiles(SRC).flatMap((path) =>
  [...readFileSync(path, 'utf8').matchAll(/(?:from|import)\s*\(?\s*'([^']+)'/g)].map((match) => ({ file: relative(SRC, path), specifier: match[1]! })));

test('each framework is imported by its own adapter only', () => {
  for (const [adapter, framework] of Object.entries(FRAMEWORKS)) {
    const importers = [...new Set(imports.filter(({ specifier }) => framework.test(specifier)).map(({ file }) => file))];
    assert.deepEqual(importers, [`integrations/${adapter}/index.ts`], `the files that import ${adapter}'s framework`);
  }
});

test('the adapters reach memsvc through the typed client only', () => {
  const inside = imports.filter(({ file, specifier }) => file.startsWith('integrations/') && specifier.startsWith('.'));
  assert.ok(inside.some(({ specifier }) => specifier.includes('/client/')), 'the scan sees the adapters import the client');
  const targets = inside.map(({ file, specifier }) => ({ file, target: relative(SRC, resolve(dirname(join(SRC, file)), specifier)) }));
  assert.deepEqual(targets.filter(({ target }) => !target.startsWith('client/') && !target.startsWith('integrations/')), []);
  assert.deepEqual(imports.filter(({ file, specifier }) => !file.startsWith('integrations/') && specifier.includes('integrations/')), [],
    'nothing else imports the adapters');
});
