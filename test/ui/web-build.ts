import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const REPO_ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
export const WEB_DIST = join(REPO_ROOT, 'web', 'dist');

/** `npm test` builds the UI first (pretest); a UI test run on its own builds it when it is missing. */
export function ensureWebBuilt(): void {
  if (existsSync(join(WEB_DIST, 'index.html'))) return;
  execFileSync(process.execPath, [join(REPO_ROOT, 'node_modules', 'vite', 'bin', 'vite.js'), 'build', 'web', '--logLevel', 'warn'],
    { cwd: REPO_ROOT, stdio: 'inherit' });
}
