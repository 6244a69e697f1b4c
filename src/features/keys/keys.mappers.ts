import type { StoredApiKey } from '../../ports/api-key-store.js';

export const toKeyResponse = (key: StoredApiKey) => ({
  id: key.id,
  name: key.name,
  grants: key.grants,
  admin: key.admin,
  requests_per_second: key.rateLimit?.requestsPerSecond ?? null,
  burst: key.rateLimit?.burst ?? null,
  created_at: key.createdAt,
  last_used_at: key.lastUsedAt,
  revoked_at: key.revokedAt,
});
