import { chmodSync, closeSync, existsSync, mkdirSync, openSync } from 'node:fs';

/** Files the service creates are readable by their owner only, whatever the umask it was started with. */
export const PRIVATE_UMASK = 0o077;
export const PRIVATE_DIR_MODE = 0o700;
export const PRIVATE_FILE_MODE = 0o600;

/** Creates the directory (and parents) if needed and makes it 0700. */
export function ensurePrivateDir(dir: string): void {
  mkdirSync(dir, { recursive: true, mode: PRIVATE_DIR_MODE });
  chmodSync(dir, PRIVATE_DIR_MODE);
}

/**
 * Creates the file empty if needed and makes it 0600. SQLite gives its WAL and
 * shared-memory files the database file's mode, so this one call covers them.
 */
export function ensurePrivateFile(file: string): void {
  closeSync(openSync(file, 'a', PRIVATE_FILE_MODE));
  chmodSync(file, PRIVATE_FILE_MODE);
}

/** Tightens files an older version left readable (a WAL from before this rule). */
export function tightenIfPresent(files: readonly string[]): void {
  for (const file of files) if (existsSync(file)) chmodSync(file, PRIVATE_FILE_MODE);
}
