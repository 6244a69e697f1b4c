import type { MemsvcClient } from '../../client/memsvc-client.js';

/** The service's /stats, one `name: value` per line (or JSON). */
export async function stats(client: MemsvcClient, options: { json: boolean }): Promise<string> {
  const result = await client.stats();
  if (options.json) return `${JSON.stringify(result, null, 2)}\n`;
  const lines: string[] = [];
  const walk = (value: unknown, prefix: string) => {
    if (value !== null && typeof value === 'object' && !Array.isArray(value)) {
      for (const [key, child] of Object.entries(value)) walk(child, prefix ? `${prefix}.${key}` : key);
    } else {
      lines.push(`${prefix}: ${Array.isArray(value) ? JSON.stringify(value) : String(value)}`);
    }
  };
  walk(result, '');
  return `${lines.join('\n')}\n`;
}
