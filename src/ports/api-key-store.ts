import type { KeyRateLimit } from '../domain/principal.js';
import type { Grant } from '../domain/scope.js';

export type { KeyRateLimit } from '../domain/principal.js';

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
   * The secret tenant tokens are signed with: the first call stores `candidate` (the first replica to ask wins; the
   * rest read the same one), every call returns the stored one.
   */
  signingSecret(candidate: string): Promise<string>;
}
