import { test } from 'node:test';
import assert from 'node:assert/strict';
import { UpstreamError, type UpstreamFailureKind } from '../domain/upstream-error.js';
import { proxyErrorOf } from './proxy-errors.js';

const failure = (kind: UpstreamFailureKind, message: string) =>
  new UpstreamError({ provider: 'upstream', kind, url: 'http://127.0.0.1:1/v1/chat/completions', message });

test('an upstream that does not answer in time is a 504 upstream_timeout, before or during the stream', () => {
  for (const midStream of [false, true]) {
    const error = proxyErrorOf(failure('timeout', 'The upstream did not answer within 100 ms'), midStream);
    assert.equal(error.status, 504);
    assert.deepEqual(error.toBody(), { error: {
      message: 'The upstream did not answer within 100 ms', type: 'api_error', param: null, code: 'upstream_timeout' } });
  }
});

test('a connection that fails is a 502: unreachable before the answer, a broken stream after it started', () => {
  const before = proxyErrorOf(failure('network', 'The upstream at http://127.0.0.1:1 cannot be reached: ECONNREFUSED'));
  assert.equal(before.status, 502);
  assert.equal(before.code, 'upstream_unreachable');
  const during = proxyErrorOf(failure('network', 'The upstream stream broke off: terminated'), true);
  assert.equal(during.status, 502);
  assert.equal(during.toBody().error.code, 'upstream_stream_failed');
  assert.equal(during.toBody().error.message, 'The upstream stream broke off: terminated');
});
