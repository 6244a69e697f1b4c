import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import type { FastifyRequest } from 'fastify';
import { createKeyVerifier, presentedKey } from './auth.js';

const request = (headers: Record<string, string | string[]>) => ({ headers }) as unknown as FastifyRequest;

describe('presentedKey', () => {
  it('reads Authorization: Bearer, with any scheme case and surrounding spaces', () => {
    assert.equal(presentedKey(request({ authorization: 'Bearer abc123' })), 'abc123');
    assert.equal(presentedKey(request({ authorization: 'bearer abc123' })), 'abc123');
    assert.equal(presentedKey(request({ authorization: '  BEARER   abc123  ' })), 'abc123');
  });

  it('reads X-API-Key', () => {
    assert.equal(presentedKey(request({ 'x-api-key': 'abc123' })), 'abc123');
    assert.equal(presentedKey(request({ 'x-api-key': ' abc123 ' })), 'abc123');
  });

  it('prefers a Bearer token over X-API-Key', () => {
    assert.equal(presentedKey(request({ authorization: 'Bearer first', 'x-api-key': 'second' })), 'first');
  });

  it('falls back to X-API-Key when Authorization is not a Bearer token', () => {
    assert.equal(presentedKey(request({ authorization: 'Basic dXNlcjpwdw==', 'x-api-key': 'key' })), 'key');
  });

  it('finds no key in other schemes, empty values or no headers', () => {
    assert.equal(presentedKey(request({})), undefined);
    assert.equal(presentedKey(request({ authorization: 'Basic dXNlcjpwdw==' })), undefined);
    assert.equal(presentedKey(request({ authorization: 'abc123' })), undefined);
    assert.equal(presentedKey(request({ authorization: 'Bearer' })), undefined);
    assert.equal(presentedKey(request({ 'x-api-key': '' })), undefined);
    assert.equal(presentedKey(request({ 'x-api-key': ['a', 'b'] })), undefined);
  });
});

describe('createKeyVerifier', () => {
  const verify = createKeyVerifier('s3cret-key-with-enough-length-0123456789');

  it('accepts exactly the configured key', () => {
    assert.equal(verify('s3cret-key-with-enough-length-0123456789'), true);
  });

  it('refuses anything else, including prefixes, extensions, case changes and no key', () => {
    for (const candidate of ['', 's3cret', 's3cret-key-with-enough-length-0123456789 ', 's3cret-key-with-enough-length-01234567890',
      'S3CRET-KEY-WITH-ENOUGH-LENGTH-0123456789', 'x'.repeat(40), undefined]) {
      assert.equal(verify(candidate), false, JSON.stringify(candidate));
    }
  });
});
