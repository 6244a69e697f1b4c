import { test } from 'node:test';
import assert from 'node:assert/strict';
import { normalizeFolder } from '../domain/folder-path.js';
import { parseMemoryHeaders, upstreamAuthorization } from './memory-headers.js';
import { ProxyError } from './proxy-errors.js';

const rules = {
  defaultBudget: 2000,
  maxLabelChars: 20,
  normalizeFolder: (folder: string, field: string) => normalizeFolder(folder, { maxChars: 100, maxDepth: 5 }, field),
};

test('defaults without headers', () => {
  assert.deepEqual(parseMemoryHeaders({}, rules), { disabled: false, budget: 2000, preferredLabels: [], excludedFolders: [] });
});

test('reads every header: lists split on commas, folders normalized, percent-encoding decoded', () => {
  const directives = parseMemoryHeaders({
    'x-memory-disable': 'no',
    'x-memory-budget': '500',
    'x-memory-labels': 'ops, , caf%C3%A9,a%2Cb',
    'x-memory-exclude-folders': '/a/,/b//c,/a',
    'x-memory-label': ' Projekt%20%C3%84 ',
    'x-memory-folder': '/work//x/',
    'x-memory-conversation-id': 'abc',
  }, rules);
  assert.deepEqual(directives, {
    disabled: false, budget: 500, preferredLabels: ['ops', 'café', 'a,b'], excludedFolders: ['/a', '/b/c'],
    conversationId: 'abc', label: 'Projekt Ä', folder: '/work/x',
  });
  assert.equal(parseMemoryHeaders({ 'x-memory-disable': 'TRUE' }, rules).disabled, true);
});

test('invalid values are 400s naming the header', () => {
  const cases: Array<[Record<string, string>, string]> = [
    [{ 'x-memory-budget': '99' }, 'X-Memory-Budget'],
    [{ 'x-memory-budget': '1e3' }, 'X-Memory-Budget'],
    [{ 'x-memory-budget': '200001' }, 'X-Memory-Budget'],
    [{ 'x-memory-disable': 'sometimes' }, 'X-Memory-Disable'],
    [{ 'x-memory-label': 'a label that is far too long' }, 'X-Memory-Label'],
    [{ 'x-memory-label': 'tab%09inside' }, 'X-Memory-Label'],
    [{ 'x-memory-folder': 'no-slash' }, 'X-Memory-Folder'],
    [{ 'x-memory-exclude-folders': '/ok,/../up' }, 'X-Memory-Exclude-Folders'],
  ];
  for (const [headers, param] of cases) {
    assert.throws(() => parseMemoryHeaders(headers, rules), (error: unknown) =>
      error instanceof ProxyError && error.status === 400 && error.param === param, JSON.stringify(headers));
  }
});

test('upstream authorization: configured key, pass-through when allowed, refused otherwise', () => {
  assert.equal(upstreamAuthorization({}, false, 'sk-server'), 'Bearer sk-server');
  assert.equal(upstreamAuthorization({}, false, ''), undefined);
  assert.equal(upstreamAuthorization({ 'x-upstream-authorization': 'Bearer sk-client' }, true, 'sk-server'), 'Bearer sk-client');
  assert.equal(upstreamAuthorization({ 'x-upstream-authorization': 'sk-client' }, true, ''), 'Bearer sk-client');
  assert.throws(() => upstreamAuthorization({ 'x-upstream-authorization': 'Bearer sk-client' }, false, 'sk-server'),
    (error: unknown) => error instanceof ProxyError && error.status === 400);
});
