#!/usr/bin/env node
// Builds dist/ (web UI + TypeScript) only when a source is newer than the last build, so `npm start`
// starts at once on a current checkout. Used by `npm start` and `prepare`.
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const root = new URL('..', import.meta.url).pathname;
const STAMP = join(root, 'dist', '.build-stamp');
const SOURCES = ['src', 'web/src', 'web/public', 'web/index.html', 'web/vite.config.ts', 'package.json',
  'tsconfig.json', 'tsconfig.build.json'];

function newestMtime(path) {
  if (!existsSync(path)) return 0;
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = 0;
  for (const entry of readdirSync(path)) newest = Math.max(newest, newestMtime(join(path, entry)));
  return newest;
}

// An installed package has no sources and a built dist/: nothing to do.
if (!existsSync(join(root, 'src'))) process.exit(0);
const built = existsSync(STAMP) ? statSync(STAMP).mtimeMs : 0;
const sources = Math.max(...SOURCES.map((path) => newestMtime(join(root, path))));
if (built >= sources) process.exit(0);

process.stderr.write('memsvc: building dist/ (sources changed since the last build)\n');
const result = spawnSync('npm', ['run', '--silent', 'build'], { cwd: root, stdio: 'inherit' });
if (result.status !== 0) process.exit(result.status ?? 1);
writeFileSync(STAMP, `${new Date().toISOString()}\n`);
