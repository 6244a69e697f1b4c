import type { Database } from 'better-sqlite3';
import { ConflictError } from '../../domain/errors.js';
import type { Grant } from '../../domain/scope.js';
import type { ApiKeyStore, NewApiKey, StoredApiKey } from '../../ports/api-key-store.js';

interface KeyRow {
  id: string;
  name: string;
  grants: string;
  admin: number;
  requests_per_second: number | null;
  burst: number | null;
  created_at: string;
  last_used_at: string | null;
  revoked_at: string | null;
}

const COLUMNS = 'id, name, grants, admin, requests_per_second, burst, created_at, last_used_at, revoked_at';
const SIGNING_SECRET = 'token_signing_secret';

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
    return (this.db.prepare(`SELECT ${COLUMNS} FROM api_keys ORDER BY created_at, id`).all() as KeyRow[]).map(toKey);
  }

  async get(id: string): Promise<StoredApiKey | null> {
    const row = this.db.prepare(`SELECT ${COLUMNS} FROM api_keys WHERE id = ?`).get(id) as KeyRow | undefined;
    return row ? toKey(row) : null;
  }

  async findBySecretHash(secretHash: string): Promise<StoredApiKey | null> {
    const row = this.db.prepare(`SELECT ${COLUMNS} FROM api_keys WHERE secret_hash = ?`).get(secretHash) as KeyRow | undefined;
    return row ? toKey(row) : null;
  }

  async revoke(id: string, at: string): Promise<boolean> {
    this.db.prepare('UPDATE api_keys SET revoked_at = ? WHERE id = ? AND revoked_at IS NULL').run(at, id);
    return this.db.prepare('SELECT 1 FROM api_keys WHERE id = ?').get(id) !== undefined;
  }

  async recordUse(id: string, at: string): Promise<void> {
    this.db.prepare('UPDATE api_keys SET last_used_at = ? WHERE id = ?').run(at, id);
  }

  async signingSecret(candidate: string): Promise<string> {
    this.db.prepare('INSERT OR IGNORE INTO service_state (key, value) VALUES (?, ?)').run(SIGNING_SECRET, candidate);
    return this.db.prepare('SELECT value FROM service_state WHERE key = ?').pluck().get(SIGNING_SECRET) as string;
  }
}

function toKey(row: KeyRow): StoredApiKey {
  return {
    id: row.id,
    name: row.name,
    grants: JSON.parse(row.grants) as Grant[],
    admin: row.admin === 1,
    rateLimit: row.requests_per_second === null || row.burst === null ? null
      : { requestsPerSecond: row.requests_per_second, burst: row.burst },
    createdAt: row.created_at,
    lastUsedAt: row.last_used_at,
    revokedAt: row.revoked_at,
  };
}
