import type { Grant } from '../domain/scope.js';

/** A key's own rate limit, when it has one (else the configured default applies). */
export interface KeyRateLimit {
  requestsPerSecond: number;
  burst: number;
}

/** An API key as stored: never its secret, only the secret's SHA-256 (hex). */
export interface StoredApiKey {
  /** `key_` and 16 hex characters: shown in logs and in the secret's prefix. */
  id: string;
  name: string;
  grants: Grant[];
  admin: boolean;
  rateLimit: KeyRateLimit | null;
  createdAt: string;
  lastUsedAt: string | null;
  revokedAt: string | null;
}

export interface NewApiKey {
  id: string;
  name: string;
  grants: readonly Grant[];
  admin: boolean;
  rateLimit: KeyRateLimit | null;
  secretHash: string;
  createdAt: string;
}

/** The keys an admin made. Every replica reads the same store, so a revocation holds everywhere. */
export interface ApiKeyStore {
  /** Throws ConflictError when a key that is not revoked already has this name. */
  create(key: NewApiKey): Promise<StoredApiKey>;
  /** Every key, oldest first, revoked ones included. */
  list(): Promise<StoredApiKey[]>;
  get(id: string): Promise<StoredApiKey | null>;
  findBySecretHash(secretHash: string): Promise<StoredApiKey | null>;
  /** Sets revoked_at once; false when there is no such key (revoking twice keeps the first time and is true). */
  revoke(id: string, at: string): Promise<boolean>;
  /** Records that the key was used (last_used_at); callers throttle it. */
  recordUse(id: string, at: string): Promise<void>;
  /**
   * The secret tenant tokens are signed with: made once by `create` (the first replica to ask stores it; the rest
   * read the same one) and returned from then on.
   */
  signingSecret(create: () => string): Promise<string>;
}
