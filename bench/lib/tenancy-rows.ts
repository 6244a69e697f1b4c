import { createHttpClient, type HttpClient } from './http-client.js';
import { runLoad } from './load.js';
import type { Measurement } from './scenario.js';
import { round } from './stats.js';

export interface TenancyRowsOptions {
  baseUrl: string;
  /** The admin key's client. */
  admin: HttpClient;
  /** The folder the tenant key is granted (read), and the admin key filters on. */
  folder: string;
  /** Its share of the store, for the row names ("1%"). */
  share: string;
  questions: readonly string[];
  requests: number;
  group?: string;
}

/**
 * A tenant key granted one folder against the admin key searching that folder: the scope is compiled into the same
 * filter, so the two should cost the same (goal: tenant p95 within 1.2x). Hybrid, then semantic; each pair
 * alternated twice and the second round kept, so neither side gets the warmer cache.
 */
export async function tenancyRows(options: TenancyRowsOptions): Promise<Measurement[]> {
  const { admin, folder } = options;
  const created = await admin.request('POST', '/api/v1/keys',
    JSON.stringify({ name: `bench-tenant-${Date.now()}`, grants: [{ folder, access: 'read' }] }));
  if (created.status !== 201) throw new Error(`creating the tenant key: ${created.status} ${created.body}`);
  const tenant = createHttpClient(options.baseUrl, (JSON.parse(created.body) as { key: string }).key, 32);
  const group = options.group ?? 'tenancy';
  const tenantName = `tenant key (${options.share} grant)`;
  const rows: Measurement[] = [];
  try {
    for (const mode of ['hybrid', 'semantic'] as const) {
      const measured: Record<string, Measurement> = {};
      for (const round of [1, 2]) {
        for (const [who, client, filters] of [['admin key, folder filter', admin, { folder }], [tenantName, tenant, undefined]] as const) {
          const bodies = options.questions.map((text) => JSON.stringify({ query: text, mode, limit: 10, ...(filters ? { filters } : {}) }));
          const result = await runLoad({
            client, concurrency: 1, maxRequests: options.requests, maxDurationMs: 120_000, warmupRequests: 10,
            expectStatus: 200, request: (i) => ({ method: 'POST', path: '/api/v1/query', body: bodies[i % bodies.length]! }),
          });
          if (round === 2) measured[who] = { group, name: `POST /query ${mode}, ${who}`, ...result };
        }
      }
      const adminRow = measured['admin key, folder filter']!;
      const tenantRow = measured[tenantName]!;
      tenantRow.note = `p95 ${round(tenantRow.p95_ms / adminRow.p95_ms, 2)}x the admin key's with the same folder filter (goal <= 1.2x)`;
      rows.push(adminRow, tenantRow);
    }
  } finally {
    tenant.close();
  }
  return rows;
}
