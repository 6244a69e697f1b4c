import { timingSafeEqual } from 'node:crypto';
import { ForbiddenError, NotFoundError, UnauthorizedError, ValidationError, ErrorCode } from '../../domain/errors.js';
import { normalizeFolder, type FolderLimits } from '../../domain/folder-path.js';
import { ADMIN_SCOPE, isSubScope, tenantScope, type Grant } from '../../domain/scope.js';
import type { ApiKeyStore, KeyRateLimit, StoredApiKey } from '../../ports/api-key-store.js';
import type { Clock } from '../../ports/clock.js';
import type { Logger } from '../../ports/logger.js';
import type { Principal } from '../../domain/principal.js';
import { claimedKeyId, hashSecret, looksLikeToken, newKeyId, newKeySecret, newSigningSecret } from './key-secrets.js';
import { signTenantToken, verifyTenantToken } from './tenant-tokens.js';

/** The configured key's id in logs and in tokens it mints. */
export const ADMIN_KEY_ID = 'admin';
/** A lookup is kept this long per replica: a revocation holds everywhere within it (the goal is 1 s). */
const KEY_CACHE_MS = 500;
const KEY_CACHE_ENTRIES = 10_000;
/** last_used_at is written at most this often per key and replica. */
const USE_RECORD_MS = 60_000;
export const MAX_TOKEN_SECONDS = 86_400;

export interface KeysServiceDeps {
  store: ApiKeyStore;
  /** The configured admin key (server.api_key). */
  adminKey: string;
  clock: Clock;
  log: Logger;
  folderLimits: FolderLimits;
}

interface CachedKey {
  key: StoredApiKey | null;
  principal: Principal | null;
  at: number;
}

export interface NewKeyRequest {
  name: string;
  grants: readonly Grant[];
  admin: boolean;
  rateLimit: KeyRateLimit | null;
}

/** Admin-made API keys, their grants, and the short-lived tenant tokens a key mints for narrower callers. */
export class KeysService {
  private readonly adminSecret: Buffer;
  private readonly byHash = new Map<string, CachedKey>();
  private readonly byId = new Map<string, CachedKey>();
  private readonly usesRecorded = new Map<string, number>();
  private signingSecret: Promise<string> | null = null;

  constructor(private readonly deps: KeysServiceDeps) {
    this.adminSecret = Buffer.from(hashSecret(deps.adminKey), 'hex');
  }

  async create(request: NewKeyRequest): Promise<{ key: StoredApiKey; secret: string }> {
    const name = request.name.trim();
    if (name === '') throw new ValidationError('name must not be empty', ErrorCode.VALIDATION_ERROR, 'name');
    const grants = this.grants(request.grants);
    if (!request.admin && grants.length === 0) {
      throw new ValidationError('grants must name at least one folder for a key that is not admin', ErrorCode.VALIDATION_ERROR, 'grants');
    }
    const id = newKeyId();
    const secret = newKeySecret(id);
    const key = await this.deps.store.create({
      id, name, grants, admin: request.admin, rateLimit: request.rateLimit, secretHash: hashSecret(secret),
      createdAt: this.deps.clock.now().toISOString(),
    });
    this.deps.log.info({ audit: 'key_created', key_id: key.id, name: key.name, grants: key.grants, admin: key.admin }, 'API key created');
    return { key, secret };
  }

  list(): Promise<StoredApiKey[]> {
    return this.deps.store.list();
  }

  async revoke(id: string): Promise<void> {
    const key = await this.deps.store.get(id);
    if (!key || !(await this.deps.store.revoke(id, this.deps.clock.now().toISOString()))) {
      throw new NotFoundError(`API key not found: ${id}`);
    }
    this.byHash.clear();
    this.byId.delete(id);
    this.deps.log.info({ audit: 'key_revoked', key_id: key.id, name: key.name, grants: key.grants }, 'API key revoked');
  }

  /** A token for a narrower caller (a browser, an agent): grants within the caller's, for at most a day. */
  async mintToken(caller: Principal, grants: readonly Grant[], expiresInSeconds: number): Promise<{ token: string; expiresAt: string; grants: Grant[] }> {
    if (caller.token) throw new ForbiddenError('A tenant token cannot mint tokens: use its key');
    const normalized = this.grants(grants);
    if (normalized.length === 0) throw new ValidationError('grants must name at least one folder', ErrorCode.VALIDATION_ERROR, 'grants');
    if (!isSubScope(normalized, caller.scope)) throw new ForbiddenError('A token\'s grants must lie within the key\'s own');
    if (!Number.isInteger(expiresInSeconds) || expiresInSeconds < 1 || expiresInSeconds > MAX_TOKEN_SECONDS) {
      throw new ValidationError(`expires_in must be 1 to ${MAX_TOKEN_SECONDS} seconds`, ErrorCode.VALIDATION_ERROR, 'expires_in');
    }
    const expiresAt = new Date(this.deps.clock.now().getTime() + expiresInSeconds * 1000);
    const token = await signTenantToken(await this.secret(), { parentKeyId: caller.keyId, grants: normalized, expiresAt });
    this.deps.log.info({ audit: 'token_minted', key_id: caller.keyId, name: caller.name, grants: normalized,
      expires_at: expiresAt.toISOString() }, 'tenant token minted');
    return { token, expiresAt: expiresAt.toISOString(), grants: normalized };
  }

  /**
   * Who presents this secret: the admin key, a stored key that is not revoked, or a valid tenant token whose
   * parent key still stands and still holds its grants. Throws UnauthorizedError otherwise.
   */
  async authenticate(presented: string | undefined): Promise<Principal> {
    if (presented === undefined || presented === '') throw new UnauthorizedError();
    const hash = hashSecret(presented);
    if (timingSafeEqual(Buffer.from(hash, 'hex'), this.adminSecret)) return adminPrincipal();
    if (looksLikeToken(presented)) return this.tokenPrincipal(presented);
    const { key, principal } = await this.cached(this.byHash, hash, () => this.deps.store.findBySecretHash(hash));
    if (!key || key.revokedAt !== null) {
      // The claimed id is safe to log (never the secret): it tells an operator which revoked key is still in use.
      throw new UnauthorizedError(key ? 'This API key was revoked' : 'Invalid or missing API key');
    }
    this.recordUse(key.id);
    return principal!;
  }

  /** The id a failed secret claimed, for the request log. */
  claimedId(presented: string | undefined): string | null {
    return presented === undefined ? null : claimedKeyId(presented);
  }

  private async tokenPrincipal(token: string): Promise<Principal> {
    const verdict = await verifyTenantToken(await this.secret(), token);
    if (!verdict.valid) throw new UnauthorizedError(verdict.reason === 'expired' ? 'The token has expired' : 'Invalid token');
    const { parentKeyId, grants, expiresAt } = verdict.claims;
    let parent: Principal;
    if (parentKeyId === ADMIN_KEY_ID) {
      parent = adminPrincipal();
    } else {
      const { key, principal } = await this.cached(this.byId, parentKeyId, () => this.deps.store.get(parentKeyId));
      if (!key || key.revokedAt !== null) throw new UnauthorizedError('The token\'s key was revoked');
      parent = principal!;
    }
    // Checked again at each use: a token never outgrows its key, even one whose grants were narrowed since.
    if (!isSubScope(grants, parent.scope)) throw new UnauthorizedError('Invalid token');
    return { keyId: parent.keyId, name: parent.name, admin: false, scope: tenantScope(grants), rateLimit: parent.rateLimit,
      token: { expiresAt: expiresAt.toISOString() } };
  }

  private grants(grants: readonly Grant[]): Grant[] {
    const seen = new Map<string, Grant>();
    grants.forEach((grant, i) => {
      const folder = normalizeFolder(grant.folder, this.deps.folderLimits, `grants[${i}].folder`);
      const known = seen.get(folder);
      // The same folder twice keeps the wider access.
      if (!known || grant.access === 'write') seen.set(folder, { folder, access: grant.access });
    });
    return [...seen.values()];
  }

  private secret(): Promise<string> {
    this.signingSecret ??= this.deps.store.signingSecret(newSigningSecret()).catch((error: unknown) => {
      this.signingSecret = null;
      throw error;
    });
    return this.signingSecret;
  }

  /** The key and its principal, kept KEY_CACHE_MS: a request reuses both (and so the scope's built services). */
  private async cached(cache: Map<string, CachedKey>, id: string, load: () => Promise<StoredApiKey | null>): Promise<CachedKey> {
    const now = Date.now();
    const hit = cache.get(id);
    if (hit && now - hit.at < KEY_CACHE_MS) return hit;
    const key = await load();
    if (cache.size >= KEY_CACHE_ENTRIES) cache.clear();
    const entry = { key, principal: key ? keyPrincipal(key) : null, at: now };
    cache.set(id, entry);
    return entry;
  }

  private recordUse(id: string): void {
    const now = Date.now();
    if (now - (this.usesRecorded.get(id) ?? 0) < USE_RECORD_MS) return;
    this.usesRecorded.set(id, now);
    this.deps.store.recordUse(id, this.deps.clock.now().toISOString())
      .catch((error: unknown) => this.deps.log.warn({ err: error, key_id: id }, 'recording a key\'s use failed'));
  }
}

export const adminPrincipal = (): Principal =>
  ({ keyId: ADMIN_KEY_ID, name: 'admin', admin: true, scope: ADMIN_SCOPE, rateLimit: null });

function keyPrincipal(key: StoredApiKey): Principal {
  return {
    keyId: key.id, name: key.name, admin: key.admin,
    scope: key.admin ? ADMIN_SCOPE : tenantScope(key.grants), rateLimit: key.rateLimit,
  };
}
