import type { Scope } from './scope.js';

/** A key's own rate limit, when it has one (else the configured default applies). */
export interface KeyRateLimit {
  requestsPerSecond: number;
  burst: number;
}

/** Who is calling: the key (or the token's parent key) and what it may see and change. */
export interface Principal {
  /** `admin` for the configured key; otherwise the stored key's id (the parent's, for a tenant token). */
  keyId: string;
  name: string;
  admin: boolean;
  scope: Scope;
  rateLimit: KeyRateLimit | null;
  /** Set when the caller presented a tenant token rather than the key itself. */
  token?: { expiresAt: string };
}
