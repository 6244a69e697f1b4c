import type { Database } from 'better-sqlite3';
import { ConflictError } from '../../domain/errors.js';
import type { ApiKeyStore, NewApiKey, StoredApiKey } from '../../ports/api-key-store.js';
import { API_KEY_COLUMNS, SIGNING_SECRET_KEY, toApiKey, type ApiKeyRow } from '../sql/api-key-rows.js';



/** API keys in `api_keys` (migration 11); the token signing secret in service_state. Writes run on the writer thread. */
export class SqliteApiKeyStore implements ApiKeyStore {
  constructor(private readonly db: Database) {}

  async create(key: NewApiKey): Promise<StoredApiKey> {
    try {
      this.db.prepare(`INSERT INTO api_keys (id, name, grants, admin, requests_per_second, burst, secret_hash, created_at)
        VALUES (?, ?, ?, ?, ?, ?, ?, ?)`).run(key.id, key.name, JSON.stringify(key.grants), key.admin ? 1 : 0,
        key.rateLimit?.requestsPerSecond ?? null, key.rateLimit?.burst ?? null, key.secretHash, key.createdAt);
    } catch (error) {
      if ((error as { code?: string }).code === 'SQLITE_CONSTRAINT_UNIQUE' && /name/.test((error as Error).message)) {
        throw new ConflictError(`A key named "${key.name}" already exists`);
      }
      throw error;
    }
    return (await this.get(key.id))!;
  }

  async list(): Promise<StoredApiKey[]> {
    return (this.db.prepare(`SELECT ${API_KEY_COLUMNS} FROM api_keys ORDER BY created_at, id`).all() as ApiKeyRow[]).map(toApiKey);
  }

  async get(id: string): Promise<StoredApiKey | null> {
    const row = this.db.prepare(`SELECT ${API_KEY_COLUMNS} FROM api_keys WHERE id = ?`).get(id) as ApiKeyRow | undefined;
    return row ? toApiKey(row) : null;
  }

  async findBySecretHash(secretHash: string): Promise<StoredApiKey | null> {
    const row = this.db.prepare(`SELECT ${API_KEY_COLUMNS} FROM api_keys WHERE secret_hash = ?`).get(secretHash) as ApiKeyRow | undefined;
    return row ? toApiKey(row) : null;
  }

  async revoke(id: string, at: string): Promise<boolean> {
    this.db.prepare('UPDATE api_keys SET revoked_at = ? WHERE id = ? AND revoked_at IS NULL').run(at, id);
    return this.db.prepare('SELECT 1 FROM api_keys WHERE id = ?').get(id) !== undefined;
  }

  async recordUse(id: string, at: string): Promise<void> {
    this.db.prepare('UPDATE api_keys SET last_used_at = ? WHERE id = ?').run(at, id);
  }

  async signingSecret(candidate: string): Promise<string> {
    this.db.prepare('INSERT OR IGNORE INTO service_state (key, value) VALUES (?, ?)').run(SIGNING_SECRET_KEY, candidate);
    return this.db.prepare('SELECT value FROM service_state WHERE key = ?').pluck().get(SIGNING_SECRET_KEY) as string;
  }
}
