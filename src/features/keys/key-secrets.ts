import { createHash, randomBytes } from 'node:crypto';

/** `key_` and 16 hex characters: safe to log, and the first part of the key's secret. */
export const newKeyId = (): string => `key_${randomBytes(8).toString('hex')}`;

/** The secret a client presents: the key's id, a dot and 256 random bits, so a leaked secret names its key in a grep. */
export const newKeySecret = (id: string): string => `${id}.${randomBytes(32).toString('base64url')}`;

/** What is stored of a secret: its SHA-256 (a 256-bit random secret needs no slow hash). */
export const hashSecret = (secret: string): string => createHash('sha256').update(secret).digest('hex');

/** The id a presented secret claims (for logs of failed attempts), or null when it is not key-shaped. */
export function claimedKeyId(secret: string): string | null {
  const match = /^(key_[0-9a-f]{16})\./.exec(secret);
  return match ? match[1]! : null;
}

/** A JWT's compact form: three base64url parts, the header's always starting with `eyJ` (`{"`). */
export const looksLikeToken = (presented: string): boolean => /^eyJ[\w-]*\.[\w-]+\.[\w-]+$/.test(presented);

/** A fresh signing secret for tenant tokens (HS256 wants at least 256 bits). */
export const newSigningSecret = (): string => randomBytes(32).toString('base64url');
