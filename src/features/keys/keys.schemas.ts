import { Type } from 'typebox';
import { StringEnum } from '../../http/schema-types.js';
import { Timestamp } from '../conversations/conversations.schemas.js';

/** Grants one key or token holds at most. */
export const MAX_GRANTS = 100;

export const GrantBody = Type.Object({
  folder: Type.String({ minLength: 1, maxLength: 1000, description: 'A folder subtree, e.g. /t/alice' }),
  access: StringEnum(['read', 'write'], { description: 'write includes read' }),
}, { additionalProperties: false });

export const CreateKeyBody = Type.Object({
  name: Type.String({ minLength: 1, maxLength: 200, description: 'Unique among keys that are not revoked' }),
  grants: Type.Array(GrantBody, { maxItems: MAX_GRANTS, default: [],
    description: 'Folder subtrees the key may read or write; at least one unless admin' }),
  admin: Type.Optional(Type.Boolean({ default: false, description: 'Full access, like the configured key' })),
  requests_per_second: Type.Optional(Type.Number({ exclusiveMinimum: 0, maximum: 1_000_000,
    description: 'This key\'s own rate limit (else rate_limit.requests_per_second)' })),
  burst: Type.Optional(Type.Integer({ minimum: 1, maximum: 1_000_000, description: 'This key\'s own burst (with requests_per_second)' })),
}, { additionalProperties: false });

export const KeyResponse = Type.Object({
  id: Type.String(),
  name: Type.String(),
  grants: Type.Array(GrantBody),
  admin: Type.Boolean(),
  requests_per_second: Type.Union([Type.Number(), Type.Null()]),
  burst: Type.Union([Type.Integer(), Type.Null()]),
  created_at: Timestamp,
  last_used_at: Type.Union([Timestamp, Type.Null()]),
  revoked_at: Type.Union([Timestamp, Type.Null()]),
});

export const CreatedKeyResponse = Type.Object({
  id: Type.String(),
  key: Type.String({ description: 'The secret: shown this once, stored only as a hash' }),
  name: Type.String(),
  grants: Type.Array(GrantBody),
  admin: Type.Boolean(),
  created_at: Timestamp,
});

export const KeyListResponse = Type.Object({ keys: Type.Array(KeyResponse) });

export const KeyIdParams = Type.Object({ id: Type.String({ minLength: 1, maxLength: 100 }) });

export const MeResponse = Type.Object({
  id: Type.String(),
  name: Type.String(),
  grants: Type.Array(GrantBody),
  admin: Type.Boolean(),
  token_expires_at: Type.Optional(Timestamp),
});

export const MintTokenBody = Type.Object({
  grants: Type.Array(GrantBody, { minItems: 1, maxItems: MAX_GRANTS }),
  expires_in: Type.Optional(Type.Integer({ minimum: 1, maximum: 86_400, default: 3600, description: 'Seconds, at most a day' })),
}, { additionalProperties: false });

export const TokenResponse = Type.Object({
  token: Type.String({ description: 'A signed JWT: present it as the API key' }),
  expires_at: Timestamp,
  grants: Type.Array(GrantBody),
});
