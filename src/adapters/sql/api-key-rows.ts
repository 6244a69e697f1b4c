import type { Grant } from '../../domain/scope.js';
import type { StoredApiKey } from '../../ports/api-key-store.js';

/** An `api_keys` row as both drivers read it: grants as JSON text (SQLite) or parsed jsonb (PostgreSQL). */
export interface ApiKeyRow {
  id: string;
  name: string;
  grants: string | Grant[];
  admin: number | boolean;
  requests_per_second: number | null;
  burst: number | null;
  created_at: string;
  last_used_at: string | null;
  revoked_at: string | null;
}

/** Every column but the secret's hash. */
export const API_KEY_COLUMNS = 'id, name, grants, admin, requests_per_second, burst, created_at, last_used_at, revoked_at';
/** The service_state key of the tenant-token signing secret. */
export const SIGNING_SECRET_KEY = 'token_signing_secret';

export function toApiKey(row: ApiKeyRow): StoredApiKey {
  return {
    id: row.id,
    name: row.name,
    grants: typeof row.grants === 'string' ? JSON.parse(row.grants) as Grant[] : row.grants,
    admin: row.admin === true || row.admin === 1,
    rateLimit: row.requests_per_second === null || row.burst === null ? null
      : { requestsPerSecond: Number(row.requests_per_second), burst: row.burst },
    createdAt: row.created_at,
    lastUsedAt: row.last_used_at,
    revokedAt: row.revoked_at,
  };
}
