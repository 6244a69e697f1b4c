import { randomBytes } from 'node:crypto';
import { chmodSync, mkdirSync, renameSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import type { CliContext } from '../cli-context.js';
import { CliError } from '../cli-errors.js';

export function showKey(context: CliContext): string {
  const key = context.findApiKey();
  if (key === null) throw new CliError(`no API key yet: "memsvc start" generates one into ${context.apiKeyFile}`);
  return `${key}\n`;
}

/** A new key in <data_dir>/api_key (mode 0600); the service uses it from its next start. */
export function rotateKey(context: CliContext): string {
  if (context.config.server.api_key !== '') {
    throw new CliError('the API key comes from the configuration (server.api_key or MEMSVC_API_KEY): change it there');
  }
  const key = `msk_${randomBytes(32).toString('base64url')}`;
  mkdirSync(dirname(context.apiKeyFile), { recursive: true, mode: 0o700 });
  const temporary = `${context.apiKeyFile}.new`;
  writeFileSync(temporary, `${key}\n`, { mode: 0o600 });
  chmodSync(temporary, 0o600);
  renameSync(temporary, context.apiKeyFile);
  return `${key}\n` +
    `written to ${context.apiKeyFile}; restart memsvc to use it, and update clients configured with the old key\n`;
}
