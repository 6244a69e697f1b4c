import { test } from 'node:test';
import assert from 'node:assert/strict';
import { isRetryableFailure, isRetryableStatus, UpstreamError, type UpstreamFailureKind } from './upstream-error.js';

test('408, 429 and every 5xx are retryable statuses; other 4xx are not', () => {
  for (const status of [408, 429, 500, 502, 503, 504, 599]) assert.equal(isRetryableStatus(status), true, String(status));
  for (const status of [400, 401, 403, 404, 409, 413, 422]) assert.equal(isRetryableStatus(status), false, String(status));
});

test('timeouts and connection errors are retryable; malformed answers and aborts are not', () => {
  const expected: Record<UpstreamFailureKind, boolean> = {
    timeout: true, network: true, invalid_response: false, aborted: false, http: false,
  };
  for (const [kind, retryable] of Object.entries(expected)) {
    assert.equal(isRetryableFailure(kind as UpstreamFailureKind), retryable, kind);
  }
});

test('an UpstreamError applies the rule to its own kind and status', () => {
  const error = (kind: UpstreamFailureKind, status?: number) =>
    new UpstreamError({ provider: 'test', kind, url: 'http://127.0.0.1:1/x', message: 'failed', status });
  assert.equal(error('http', 503).retryable, true);
  assert.equal(error('http', 429).retryable, true);
  assert.equal(error('http', 400).retryable, false);
  assert.equal(error('http').retryable, false, 'an http failure without a status is not guessed retryable');
  assert.equal(error('timeout').retryable, true);
  assert.equal(error('network').retryable, true);
  assert.equal(error('invalid_response', 200).retryable, false);
});
