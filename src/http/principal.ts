import type { FastifyRequest } from 'fastify';
import type { Principal } from '../domain/principal.js';

export type { Principal } from '../domain/principal.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** Set by the auth hook on every route that is not public. */
    principal?: Principal;
    /** The key id a refused secret claimed (for the log; never the secret). */
    claimedKeyId?: string;
  }
  interface FastifyContextConfig {
    /** Only an admin key may call it (key management, rebuilds, detailed health). */
    admin?: boolean;
  }
}

/** A feature's service as the calling request's scope sees it: the only way routes reach a service. */
export type ForRequest<T> = (request: FastifyRequest) => T;

/** The principal of an authenticated request (the auth hook ran: the route is not public). */
export function principalOf(request: FastifyRequest): Principal {
  if (!request.principal) throw new Error(`no principal on ${request.method} ${request.url}: a public route used a scoped service`);
  return request.principal;
}
