import { ConflictError } from '../../domain/errors.js';
import type { ApiKeyStore, NewApiKey, StoredApiKey } from '../../ports/api-key-store.js';
import { API_KEY_COLUMNS, SIGNING_SECRET_KEY, toApiKey, type ApiKeyRow } from '../sql/api-key-rows.js';
import type { Pool } from './postgres-pool.js';



/** API keys in `api_keys` (migration 5); the token signing secret in service_state, the same for every replica. */
export class PostgresApiKeyStore implements ApiKeyStore {
  constructor(private readonly pool: Pool) {}

  async create(key: NewApiKey): Promise<StoredApiKey> {
    try {
      const { rows } = await this.pool.query<ApiKeyRow>(`INSERT INTO api_keys
          (id, name, grants, admin, requests_per_second, burst, secret_hash, created_at)
        VALUES ($1, $2, $3::jsonb, $4, $5, $6, $7, $8) RETURNING ${API_KEY_COLUMNS}`,
      [key.id, key.name, JSON.stringify(key.grants), key.admin, key.rateLimit?.requestsPerSecond ?? null,
        key.rateLimit?.burst ?? null, key.secretHash, key.createdAt]);
      return toApiKey(rows[0]!);
    } catch (error) {
      if ((error as { code?: string }).code === '23505' && (error as { constraint?: string }).constraint === 'api_keys_active_name') {
        throw new ConflictError(`A key named "${key.name}" already exists`);
      }
      throw error;
    }
  }

  async list(): Promise<StoredApiKey[]> {
    const { rows } = await this.pool.query<ApiKeyRow>(`SELECT ${API_KEY_COLUMNS} FROM api_keys ORDER BY created_at, id`);
    return rows.map(toApiKey);
  }

  async get(id: string): Promise<StoredApiKey | null> {
    const { rows } = await this.pool.query<ApiKeyRow>(`SELECT ${API_KEY_COLUMNS} FROM api_keys WHERE id = $1`, [id]);
    return rows[0] ? toApiKey(rows[0]) : null;
  }

  async findBySecretHash(secretHash: string): Promise<StoredApiKey | null> {
    const { rows } = await this.pool.query<ApiKeyRow>(`SELECT ${API_KEY_COLUMNS} FROM api_keys WHERE secret_hash = $1`, [secretHash]);
    return rows[0] ? toApiKey(rows[0]) : null;
  }

  async revoke(id: string, at: string): Promise<boolean> {
    const { rows } = await this.pool.query(`UPDATE api_keys SET revoked_at = COALESCE(revoked_at, $2) WHERE id = $1 RETURNING id`,
      [id, at]);
    return rows.length > 0;
  }

  async recordUse(id: string, at: string): Promise<void> {
    await this.pool.query('UPDATE api_keys SET last_used_at = $2 WHERE id = $1', [id, at]);
  }

  async signingSecret(candidate: string): Promise<string> {
    // ON CONFLICT DO NOTHING, then read: two replicas asking at once both read the one that was stored.
    await this.pool.query('INSERT INTO service_state (key, value) VALUES ($1, $2) ON CONFLICT (key) DO NOTHING',
      [SIGNING_SECRET_KEY, candidate]);
    const { rows } = await this.pool.query<{ value: string }>('SELECT value FROM service_state WHERE key = $1', [SIGNING_SECRET_KEY]);
    return rows[0]!.value;
  }
}
