import type { MemsvcClient } from '../../client/memsvc-client.js';
import { CliError } from '../cli-errors.js';

type Grant = { folder: string; access: 'read' | 'write' };

/** `/t/alice:write` (or `/kb` for read) as a grant. */
export function parseGrant(text: string): Grant {
  const match = /^(.+?)(?::(read|write))?$/.exec(text.trim());
  if (!match || !match[1]!.startsWith('/')) throw new CliError(`a grant is FOLDER[:read|write], e.g. /t/alice:write (got "${text}")`);
  return { folder: match[1]!, access: (match[2] as Grant['access'] | undefined) ?? 'read' };
}

/** Creates a key on the running service (admin key); prints its secret, shown this once. */
export async function createKey(client: MemsvcClient, name: string, options: { grant: string[]; admin: boolean; json: boolean }): Promise<string> {
  const created = await client.keys.create({ name, grants: options.grant.map(parseGrant), admin: options.admin });
  if (options.json) return `${JSON.stringify(created, null, 2)}\n`;
  const grants = created.grants.map((grant) => `${grant.folder}:${grant.access}`).join(', ') || (created.admin ? 'admin' : '-');
  return `${created.key}\n${created.id} "${created.name}" (${grants}): the secret above is shown once; store it now\n`;
}

export async function listKeys(client: MemsvcClient, options: { json: boolean }): Promise<string> {
  const keys = await client.keys.list();
  if (options.json) return `${JSON.stringify(keys, null, 2)}\n`;
  if (keys.length === 0) return 'no keys yet: memsvc key create NAME --grant /folder:write\n';
  return keys.map((key) => [
    key.id, key.name, key.admin ? 'admin' : key.grants.map((grant) => `${grant.folder}:${grant.access}`).join(','),
    key.revoked_at ? `revoked ${key.revoked_at}` : `last used ${key.last_used_at ?? 'never'}`,
  ].join('  ')).join('\n') + '\n';
}

export async function revokeKey(client: MemsvcClient, id: string): Promise<string> {
  await client.keys.revoke(id);
  return `${id} revoked: its requests and tokens are refused from now on\n`;
}
