import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { Writable } from 'node:stream';
import { signTenantToken } from '../../src/features/keys/tenant-tokens.js';
import { createMemsvcClient, MemsvcConflictError, MemsvcError, MemsvcForbiddenError } from '../../src/client/index.js';
import { startService, type RunningService } from '../helpers/service-harness.js';
import { waitFor } from '../helpers/wait-for.js';

describe('API keys and tenant tokens', () => {
  let service: RunningService;
  let logs = '';
  const as = (secret: string) => ({ authorization: `Bearer ${secret}` });

  before(async () => {
    const stream = new Writable({ write(chunk, _encoding, done) { logs += String(chunk); done(); } });
    service = await startService({ logger: { level: 'info', stream } });
  });
  after(async () => { await service?.stop(); });

  test('an admin creates a key; its secret is shown once, listed never, and it knows itself', async () => {
    const created = await service.api('POST', '/api/v1/keys', {
      name: 'lifecycle', grants: [{ folder: '/t/life/', access: 'write' }, { folder: '/kb', access: 'read' }],
    });
    assert.equal(created.status, 201, created.text);
    assert.match(created.body.id, /^key_[0-9a-f]{16}$/);
    assert.ok(created.body.key.startsWith(`${created.body.id}.`), 'the secret names its key');
    assert.deepEqual(created.body.grants, [{ folder: '/t/life', access: 'write' }, { folder: '/kb', access: 'read' }]);
    assert.equal(created.body.admin, false);

    const me = await service.api('GET', '/api/v1/keys/me', undefined, as(created.body.key));
    assert.equal(me.status, 200);
    assert.deepEqual({ id: me.body.id, name: me.body.name, admin: me.body.admin }, { id: created.body.id, name: 'lifecycle', admin: false });

    const listed = await service.api('GET', '/api/v1/keys');
    const entry = listed.body.keys.find((key: any) => key.id === created.body.id);
    assert.ok(entry);
    assert.ok(!listed.text.includes(created.body.key.split('.')[1]), 'no secret in the listing');
    await waitFor(async () => (await service.api('GET', '/api/v1/keys')).body.keys.find((k: any) => k.id === created.body.id).last_used_at,
      { what: 'last_used_at to be recorded' });

    const revoked = await service.api('DELETE', `/api/v1/keys/${created.body.id}`);
    assert.equal(revoked.status, 204);
    const after = await service.api('GET', '/api/v1/keys/me', undefined, as(created.body.key));
    assert.equal(after.status, 401, 'refused at once on this replica');
    assert.equal(after.body.code, 'UNAUTHORIZED');
    const relisted = await service.api('GET', '/api/v1/keys');
    assert.ok(relisted.body.keys.find((k: any) => k.id === created.body.id).revoked_at);
    assert.equal((await service.api('DELETE', '/api/v1/keys/key_0000000000000000')).status, 404);
  });

  test('bad key requests get a clear 4xx, never a 500', async () => {
    const cases: Array<[unknown, number]> = [
      [{ name: 'x', grants: [{ folder: '/a', access: 'write' }], surprise: 1 }, 400],
      [{ name: 'x', grants: [] }, 400],
      [{ name: 'x', grants: [{ folder: '/..', access: 'read' }] }, 400],
      [{ name: 'x', grants: [{ folder: '/a/../b', access: 'read' }] }, 400],
      [{ name: 'x', grants: [{ folder: 'not-a-path', access: 'read' }] }, 400],
      [{ name: 'x', grants: [{ folder: '/a', access: 'owner' }] }, 400],
      [{ name: 'x', grants: Array.from({ length: 10_000 }, (_, i) => ({ folder: `/f${i}`, access: 'read' })) }, 400],
      [{ name: '', grants: [{ folder: '/a', access: 'read' }] }, 400],
      [{ grants: [{ folder: '/a', access: 'read' }] }, 400],
      [{ name: 'x', grants: [{ folder: '/a', access: 'read' }], requests_per_second: 5 }, 400],
      ['not json', 400],
    ];
    for (const [body, status] of cases) {
      const answer = await service.api('POST', '/api/v1/keys', body);
      assert.equal(answer.status, status, `${JSON.stringify(body).slice(0, 120)}: ${answer.text}`);
      assert.equal(typeof answer.body.error, 'string');
    }
    const minter = (await service.api('POST', '/api/v1/keys', { name: 'bad-minter', grants: [{ folder: '/m', access: 'write' }] })).body;
    const mints: Array<[unknown, number]> = [
      [{ grants: [] }, 400],
      [{ grants: [{ folder: 'no-slash', access: 'read' }] }, 400],
      [{ grants: [{ folder: '/m/../x', access: 'read' }] }, 400],
      [{ grants: [{ folder: '/m', access: 'read' }], expires_in: 0 }, 400],
      [{ grants: [{ folder: '/m', access: 'read' }], surprise: true }, 400],
      [{ grants: Array.from({ length: 10_000 }, () => ({ folder: '/m', access: 'read' })) }, 400],
    ];
    for (const [body, status] of mints) {
      const answer = await service.api('POST', '/api/v1/keys/me/tokens', body, as(minter.key));
      assert.equal(answer.status, status, `mint ${JSON.stringify(body).slice(0, 120)}: ${answer.text}`);
      assert.equal(typeof answer.body.error, 'string');
    }
    const long = await service.api('DELETE', `/api/v1/keys/${'k'.repeat(101)}`);
    assert.deepEqual([long.status, long.body.code], [414, 'VALIDATION_ERROR'], 'an id longer than the router takes, in the envelope');
    assert.equal((await service.api('DELETE', `/api/v1/keys/${'k'.repeat(100)}`)).status, 404);
    const first = await service.api('POST', '/api/v1/keys', { name: 'twin', grants: [{ folder: '/twin', access: 'read' }] });
    assert.equal(first.status, 201);
    const second = await service.api('POST', '/api/v1/keys', { name: 'twin', grants: [{ folder: '/twin', access: 'read' }] });
    assert.equal(second.status, 409, second.text);
    assert.equal(second.body.code, 'CONFLICT');
  });

  test('tokens: within the key\'s grants, refused when expired, forged, widened or orphaned', async () => {
    const key = (await service.api('POST', '/api/v1/keys', { name: 'minter', grants: [{ folder: '/t/m', access: 'write' }] })).body;
    await service.api('POST', '/api/v1/conversations', { label: 'in m', folder: '/t/m/a', messages: [] });
    await service.api('POST', '/api/v1/conversations', { label: 'outside', folder: '/t/other', messages: [] });

    const mint = (grants: unknown, expires_in?: number) =>
      service.api('POST', '/api/v1/keys/me/tokens', { grants, ...(expires_in ? { expires_in } : {}) }, as(key.key));
    const minted = await mint([{ folder: '/t/m/a', access: 'read' }]);
    assert.equal(minted.status, 201, minted.text);
    const listed = await service.api('GET', '/api/v1/conversations', undefined, as(minted.body.token));
    assert.deepEqual(listed.body.results.map((c: any) => c.label), ['in m']);
    const write = await service.api('POST', '/api/v1/conversations', { label: 'x', folder: '/t/m/a', messages: [] }, as(minted.body.token));
    assert.equal(write.status, 403, 'a read token does not write');

    assert.equal((await mint([{ folder: '/t', access: 'read' }])).status, 403, 'wider than the key');
    assert.equal((await mint([{ folder: '/t/m', access: 'write' }], 86_401)).status, 400, 'longer than a day');
    assert.equal((await service.api('POST', '/api/v1/keys/me/tokens', { grants: [{ folder: '/t/m', access: 'read' }] },
      as(minted.body.token))).status, 403, 'a token mints nothing');

    const [header, payload] = minted.body.token.split('.');
    const forged = `${header}.${payload}.${'A'.repeat(43)}`;
    assert.equal((await service.api('GET', '/api/v1/keys/me', undefined, as(forged))).status, 401);
    const otherSecret = await signTenantToken('not-the-server-secret-not-the-server-secret', {
      parentKeyId: key.id, grants: [{ folder: '/t/m', access: 'read' }], expiresAt: new Date(Date.now() + 60_000) });
    assert.equal((await service.api('GET', '/api/v1/keys/me', undefined, as(otherSecret))).status, 401);
    const secret = await service.controller.storage.keys.signingSecret('unused-candidate');
    const widened = await signTenantToken(secret, {
      parentKeyId: key.id, grants: [{ folder: '/t', access: 'write' }], expiresAt: new Date(Date.now() + 60_000) });
    const refused = await service.api('GET', '/api/v1/conversations', undefined, as(widened));
    assert.equal(refused.status, 401, 'a token wider than its key (signed with the real secret) is refused');
    const expired = await signTenantToken(secret, {
      parentKeyId: key.id, grants: [{ folder: '/t/m', access: 'read' }], expiresAt: new Date(Date.now() - 1000) });
    const late = await service.api('GET', '/api/v1/keys/me', undefined, as(expired));
    assert.equal(late.status, 401);
    assert.match(late.body.error, /expired/);

    assert.equal((await service.api('DELETE', `/api/v1/keys/${key.id}`)).status, 204);
    assert.equal((await service.api('GET', '/api/v1/keys/me', undefined, as(minted.body.token))).status, 401, 'revoking the key ends its tokens');
  });

  test('the typed client: keys.create, list, mintToken and revoke; a token works as its apiKey', async () => {
    const admin = createMemsvcClient({ baseUrl: service.baseUrl, apiKey: service.apiKey });
    const created = await admin.keys.create({ name: 'typed', grants: [{ folder: '/typed', access: 'write' }] });
    await assert.rejects(admin.keys.create({ name: 'typed', grants: [{ folder: '/typed', access: 'read' }] }),
      (error: unknown) => error instanceof MemsvcConflictError && error.code === 'CONFLICT');
    assert.ok((await admin.keys.list()).some((key) => key.id === created.id));
    const scoped = createMemsvcClient({ baseUrl: service.baseUrl, apiKey: created.key });
    await scoped.conversations.create({ label: 'mine', messages: [] });
    const { token } = await scoped.keys.mintToken([{ folder: '/typed', access: 'read' }], 60);
    const byToken = createMemsvcClient({ baseUrl: service.baseUrl, apiKey: token });
    assert.deepEqual((await byToken.conversations.list()).results.map((c) => c.folder), ['/typed']);
    await assert.rejects(byToken.conversations.create({ label: 'no', folder: '/typed', messages: [] }),
      (error: unknown) => error instanceof MemsvcForbiddenError && error.status === 403 && error.code === 'FORBIDDEN');
    await admin.keys.revoke(created.id);
    await assert.rejects(scoped.keys.me(), (error: unknown) => error instanceof MemsvcError && error.status === 401);
  });

  test('each key has its own rate-limit bucket, and its own limits when it carries them', async () => {
    const slow = (await service.api('POST', '/api/v1/keys', {
      name: 'slow', grants: [{ folder: '/slow', access: 'read' }], requests_per_second: 0.1, burst: 1 })).body;
    const first = await service.api('GET', '/api/v1/keys/me', undefined, as(slow.key));
    assert.equal(first.status, 200);
    const second = await service.api('GET', '/api/v1/keys/me', undefined, as(slow.key));
    assert.equal(second.status, 429, second.text);
    assert.equal(second.body.code, 'RATE_LIMITED');
    assert.ok(Number(second.headers.get('retry-after')) >= 1);
    assert.equal((await service.api('GET', '/api/v1/keys/me')).status, 200, 'the admin key has a bucket of its own');
    const listed = (await service.api('GET', '/api/v1/keys')).body.keys.find((key: any) => key.id === slow.id);
    assert.deepEqual([listed.requests_per_second, listed.burst], [0.1, 1]);
  });

  test('with metrics.require_key, /metrics takes the admin key only: a scoped key gets 403', async () => {
    const guarded = await startService({ overrides: { metrics: { require_key: true } } });
    try {
      const key = (await guarded.api('POST', '/api/v1/keys', { name: 'scraper', grants: [{ folder: '/s', access: 'read' }] })).body;
      const refused = await guarded.api('GET', '/metrics', undefined, as(key.key));
      assert.equal(refused.status, 403);
      assert.equal(refused.body.code, 'FORBIDDEN');
      assert.equal((await guarded.api('GET', '/metrics')).status, 200);
    } finally {
      await guarded.stop();
    }
  });

  test('the admin key mints tokens too; audit lines name key ids, and no secret reaches the log', async () => {
    const created = (await service.api('POST', '/api/v1/keys', { name: 'audited', grants: [{ folder: '/aud', access: 'write' }] })).body;
    const token = await service.api('POST', '/api/v1/keys/me/tokens', { grants: [{ folder: '/aud', access: 'read' }] });
    assert.equal(token.status, 201);
    await service.api('GET', '/api/v1/keys/me', undefined, as(created.key));
    await service.api('GET', '/api/v1/keys/me', undefined, as(`${created.id}.wrong-secret`));
    await service.api('DELETE', `/api/v1/keys/${created.id}`);
    await waitFor(() => logs.includes('key_revoked'), { what: 'the revocation audit line' });
    const lines = logs.split('\n').filter(Boolean).map((line) => JSON.parse(line));
    assert.ok(lines.some((l) => l.audit === 'key_created' && l.key_id === created.id && l.name === 'audited' && l.grants));
    assert.ok(lines.some((l) => l.audit === 'token_minted' && l.key_id === 'admin'));
    assert.ok(lines.some((l) => l.key_id === created.id && /GET \/api\/v1\/keys\/me 200/.test(l.msg)), 'request lines carry the key id');
    assert.ok(lines.some((l) => l.key_id === created.id && /401/.test(l.msg)), 'a refused secret logs the id it claimed');
    for (const secret of [created.key.split('.')[1], token.body.token, service.apiKey]) {
      assert.ok(!logs.includes(secret), 'a secret in the log');
    }
  });
});
