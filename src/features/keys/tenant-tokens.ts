import { errors, jwtVerify, SignJWT } from 'jose';
import type { Grant } from '../../domain/scope.js';

const ISSUER = 'memsvc';
const AUDIENCE = 'memsvc-api';

/** What a tenant token carries: its parent key (whose revocation ends it), its grants and its end. */
export interface TenantTokenClaims {
  parentKeyId: string;
  grants: Grant[];
  expiresAt: Date;
}

/** Signs a token with HS256 under the store's secret (so every replica verifies it). */
export async function signTenantToken(secret: string, claims: TenantTokenClaims): Promise<string> {
  return new SignJWT({ grants: claims.grants })
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setIssuer(ISSUER)
    .setAudience(AUDIENCE)
    .setSubject(claims.parentKeyId)
    .setIssuedAt()
    .setJti(crypto.randomUUID())
    .setExpirationTime(claims.expiresAt)
    .sign(new TextEncoder().encode(secret));
}

export type TokenVerdict = { valid: true; claims: TenantTokenClaims } | { valid: false; reason: 'expired' | 'invalid' };

/** Checks signature, algorithm, issuer, audience and expiry; never throws. */
export async function verifyTenantToken(secret: string, token: string): Promise<TokenVerdict> {
  try {
    const { payload } = await jwtVerify(token, new TextEncoder().encode(secret), {
      issuer: ISSUER, audience: AUDIENCE, algorithms: ['HS256'], requiredClaims: ['sub', 'exp'],
    });
    const grants = payload['grants'];
    if (!Array.isArray(grants) || !grants.every(isGrant) || typeof payload.sub !== 'string') return { valid: false, reason: 'invalid' };
    return { valid: true, claims: { parentKeyId: payload.sub, grants, expiresAt: new Date(payload.exp! * 1000) } };
  } catch (error) {
    return { valid: false, reason: error instanceof errors.JWTExpired ? 'expired' : 'invalid' };
  }
}

const isGrant = (value: unknown): value is Grant => typeof value === 'object' && value !== null
  && typeof (value as Grant).folder === 'string' && ((value as Grant).access === 'read' || (value as Grant).access === 'write');
