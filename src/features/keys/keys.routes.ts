import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { principalOf } from '../../http/principal.js';
import { EmptyResponse, ErrorResponse } from '../conversations/conversations.schemas.js';
import type { KeysService } from './keys.service.js';
import { toKeyResponse } from './keys.mappers.js';
import { CreateKeyBody, CreatedKeyResponse, KeyIdParams, KeyListResponse, MeResponse, MintTokenBody, TokenResponse } from './keys.schemas.js';

const tags = ['keys'];
const errors = { 400: ErrorResponse, 401: ErrorResponse, 403: ErrorResponse, 429: ErrorResponse };

/** Key management (admin only) and, for every caller, its own identity and tenant tokens. */
export const keyRoutes: FastifyPluginAsyncTypebox<{ keys: KeysService }> = async (app, { keys }) => {
  app.post('/keys', {
    config: { admin: true },
    schema: { tags, summary: 'Create an API key with folder grants (admin); its secret is shown once', body: CreateKeyBody,
      response: { 201: CreatedKeyResponse, 409: ErrorResponse, ...errors } },
  }, async (request, reply) => {
    const body = request.body;
    if ((body.requests_per_second === undefined) !== (body.burst === undefined)) {
      return reply.code(400).send({ error: 'requests_per_second and burst are given together', code: 'VALIDATION_ERROR' });
    }
    const { key, secret } = await keys.create({
      name: body.name, grants: body.grants, admin: body.admin ?? false,
      rateLimit: body.requests_per_second !== undefined ? { requestsPerSecond: body.requests_per_second, burst: body.burst! } : null,
    });
    return reply.code(201).send({ id: key.id, key: secret, name: key.name, grants: key.grants, admin: key.admin, created_at: key.createdAt });
  });

  app.get('/keys', {
    config: { admin: true },
    schema: { tags, summary: 'Every key with its grants, last use and revocation (admin; never a secret)',
      response: { 200: KeyListResponse, ...errors } },
  }, async () => ({ keys: (await keys.list()).map(toKeyResponse) }));

  app.get('/keys/me', {
    schema: { tags, summary: 'The calling key: id, name, grants, admin', response: { 200: MeResponse, ...errors } },
  }, async (request) => {
    const me = principalOf(request);
    return {
      id: me.keyId, name: me.name, admin: me.admin,
      grants: me.scope.admin ? [{ folder: '/', access: 'write' as const }] : [...me.scope.grants],
      ...(me.token ? { token_expires_at: me.token.expiresAt } : {}),
    };
  });

  app.post('/keys/me/tokens', {
    schema: { tags, summary: 'Mint a short-lived tenant token with grants within the caller\'s', body: MintTokenBody,
      response: { 201: TokenResponse, ...errors } },
  }, async (request, reply) => {
    const minted = await keys.mintToken(principalOf(request), request.body.grants, request.body.expires_in ?? 3600);
    return reply.code(201).send({ token: minted.token, expires_at: minted.expiresAt, grants: minted.grants });
  });

  app.delete('/keys/:id', {
    config: { admin: true },
    schema: { tags, summary: 'Revoke a key (admin): its next request, and its tokens\', get 401 on every replica',
      params: KeyIdParams, response: { 204: EmptyResponse, 404: ErrorResponse, ...errors } },
  }, async (request, reply) => {
    await keys.revoke(request.params.id);
    return reply.code(204).send();
  });
};
