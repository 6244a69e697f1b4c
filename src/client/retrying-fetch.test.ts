import { test } from 'node:test';
import assert from 'node:assert/strict';
import { retryingFetch } from './retrying-fetch.js';

/** A server that answers the given responses in turn, as the real one does when it sheds or refuses. */
function scripted(...answers: Array<() => Response>) {
  const seen: string[] = [];
  const fetchImpl: typeof fetch = async (input) => {
    seen.push(new Request(input).url);
    const next = answers.shift();
    if (!next) throw new Error('no more answers');
    return next();
  };
  return { fetchImpl, seen };
}

const json = (status: number, body: unknown, headers: Record<string, string> = {}) => () =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json', ...headers } });
const policy = { maxRetries: 3, maxDelayMs: 30_000, baseDelayMs: 1 };

test('a 503 shed by admission control (OVERLOADED, Retry-After) is sent again and succeeds', async () => {
  const server = scripted(
    json(503, { error: 'The service is overloaded: retry after 1 s', code: 'OVERLOADED' }, { 'retry-after': '0' }),
    json(200, { imported: 1 }),
  );
  const response = await retryingFetch(server.fetchImpl, policy)('http://memsvc.test/api/v1/import', { method: 'POST', body: '[]' });
  assert.equal(response.status, 200);
  assert.equal(server.seen.length, 2);
});

test('a 503 from inside a handler (an upstream down) is returned, not repeated', async () => {
  const server = scripted(json(503, { error: 'Semantic search is unavailable', code: 'UPSTREAM_UNAVAILABLE' }, { 'retry-after': '0' }));
  const response = await retryingFetch(server.fetchImpl, policy)('http://memsvc.test/api/v1/query', { method: 'POST', body: '{}' });
  assert.equal(response.status, 503);
  assert.equal((await response.json() as { code: string }).code, 'UPSTREAM_UNAVAILABLE');
  assert.equal(server.seen.length, 1);
});

test('a shed 503 without Retry-After, or past maxRetries, is returned', async () => {
  const bare = scripted(json(503, { error: 'overloaded', code: 'OVERLOADED' }));
  assert.equal((await retryingFetch(bare.fetchImpl, policy)('http://memsvc.test/stats')).status, 503);
  assert.equal(bare.seen.length, 1);
  const shed = json(503, { error: 'overloaded', code: 'OVERLOADED' }, { 'retry-after': '0' });
  const always = scripted(shed, shed, shed);
  assert.equal((await retryingFetch(always.fetchImpl, { ...policy, maxRetries: 2 })('http://memsvc.test/stats')).status, 503);
  assert.equal(always.seen.length, 3);
});
