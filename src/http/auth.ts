import { createHash, timingSafeEqual } from 'node:crypto';
import type { FastifyRequest } from 'fastify';

/** The key a request presents: `Authorization: Bearer <key>` or `X-API-Key: <key>`. */
export function presentedKey(request: FastifyRequest): string | undefined {
  const authorization = request.headers.authorization;
  if (typeof authorization === 'string') {
    const match = /^Bearer\s+(.+)$/i.exec(authorization.trim());
    if (match) return match[1]!.trim();
  }
  const header = request.headers['x-api-key'];
  return typeof header === 'string' && header !== '' ? header.trim() : undefined;
}

/** Compares in constant time; hashing first makes the lengths equal so length leaks nothing either. */
export function createKeyVerifier(expected: string): (candidate: string | undefined) => boolean {
  const expectedDigest = createHash('sha256').update(expected).digest();
  return (candidate) => {
    if (candidate === undefined) return false;
    return timingSafeEqual(createHash('sha256').update(candidate).digest(), expectedDigest);
  };
}
