import { randomBytes } from 'node:crypto';
import { chmodSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export const API_KEY_FILE = 'api_key';

export interface ResolvedApiKey {
  key: string;
  /** True when this call generated the key (it is printed once, then only kept in the file). */
  generated: boolean;
  file?: string;
}

/**
 * The configured key, or the one kept in data_dir/api_key, or a new strong one
 * written there with mode 0600: `npm start` just works and is never open.
 */
export function resolveApiKey(configured: string, dataDir: string): ResolvedApiKey {
  if (configured !== '') return { key: configured, generated: false };
  const file = join(dataDir, API_KEY_FILE);
  try {
    const stored = readFileSync(file, 'utf8').trim();
    if (stored !== '') {
      if ((statSync(file).mode & 0o077) !== 0) chmodSync(file, 0o600);
      return { key: stored, generated: false, file };
    }
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  mkdirSync(dataDir, { recursive: true });
  const key = `msk_${randomBytes(32).toString('base64url')}`;
  writeFileSync(file, `${key}\n`, { mode: 0o600, flag: 'w' });
  chmodSync(file, 0o600);
  return { key, generated: true, file };
}
