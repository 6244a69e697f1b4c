import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Type } from 'typebox';
import {
  ConflictError, ConversationNotFoundError, DomainError, ErrorCode, LimitExceededError, NotFoundError,
  StorageFullError, UnauthorizedError, UnavailableError, ValidationError,
} from '../domain/errors.js';
import { ToolInvoker } from '../mcp/tool-invoker.js';
import type { Logger } from '../ports/logger.js';
import { toWireError } from './error-mapping.js';

/** Every kind of domain error, with the status and code a client has always been told. */
const CASES: Array<[DomainError, number, string]> = [
  [new ValidationError('label must not be empty', ErrorCode.VALIDATION_ERROR, 'label'), 400, 'VALIDATION_ERROR'],
  [new ValidationError('folder must start with "/"', ErrorCode.INVALID_FOLDER, 'folder'), 400, 'INVALID_FOLDER'],
  [new ValidationError('line 2 is not valid JSON', ErrorCode.INVALID_JSON), 400, 'INVALID_JSON'],
  [new ConversationNotFoundError('abc'), 404, 'CONVERSATION_NOT_FOUND'],
  [new NotFoundError('Unknown tool: x'), 404, 'NOT_FOUND'],
  [new ConflictError('the id is taken by another conversation'), 409, 'CONFLICT'],
  [new ConflictError('import batch b-1, which this one follows, was not stored', ErrorCode.OUT_OF_SEQUENCE), 409, 'OUT_OF_SEQUENCE'],
  [new LimitExceededError(ErrorCode.MESSAGE_TOO_LONG, 'messages[0].content is too long'), 400, 'MESSAGE_TOO_LONG'],
  [new LimitExceededError(ErrorCode.TOO_MANY_MESSAGES, 'at most 4 messages'), 400, 'TOO_MANY_MESSAGES'],
  [new LimitExceededError(ErrorCode.PAYLOAD_TOO_LARGE, 'Request body is too large'), 413, 'PAYLOAD_TOO_LARGE'],
  [new LimitExceededError(ErrorCode.RATE_LIMITED, 'Rate limit exceeded: retry after 1 s'), 429, 'RATE_LIMITED'],
  [new UnavailableError(ErrorCode.UPSTREAM_UNAVAILABLE, 'bridge down', true), 503, 'UPSTREAM_UNAVAILABLE'],
  [new UnavailableError(ErrorCode.UPSTREAM_UNAVAILABLE, 'model changed', false), 503, 'UPSTREAM_UNAVAILABLE'],
  [new UnavailableError(ErrorCode.OVERLOADED, 'busy', true), 503, 'OVERLOADED'],
  [new StorageFullError(), 507, 'STORAGE_FULL'],
  [new UnauthorizedError(), 401, 'UNAUTHORIZED'],
];

test('every domain error kind maps to one status and its own code and message', () => {
  const kinds = new Set(CASES.map(([error]) => error.kind));
  assert.deepEqual([...kinds].sort(),
    ['conflict', 'invalid_input', 'limit_exceeded', 'not_found', 'unauthorized', 'unavailable']);
  for (const [error, status, code] of CASES) {
    assert.deepEqual(toWireError(error), { status, code, message: error.message }, `${error.kind} ${code}`);
  }
});

test('a full disk from any layer is STORAGE_FULL; anything else is not the client\'s business', () => {
  const sqliteFull = Object.assign(new Error('database or disk is full'), { code: 'SQLITE_FULL' });
  assert.deepEqual(toWireError(sqliteFull), { status: 507, code: 'STORAGE_FULL', message: new StorageFullError().message });
  assert.equal(toWireError(new Error('boom')), null);
  assert.equal(toWireError('not even an error'), null);
});

test('the MCP envelope carries the same code and message, and the REST form the same status', async () => {
  const logged: unknown[] = [];
  const log = { error: (...args: unknown[]) => logged.push(args), warn() {}, info() {}, debug() {} } as unknown as Logger;
  let next: unknown = null;
  const invoker = new ToolInvoker([{
    name: 'fail', description: 'throws what the test hands it', inputSchema: Type.Object({}), outputSchema: Type.Object({}),
    run: async () => { throw next; },
  }], log);
  for (const [error, status, code] of CASES) {
    next = error;
    assert.deepEqual(await invoker.invoke('fail', {}),
      { status, envelope: { success: false, data: null, error: { code, message: error.message } } }, code);
  }
  assert.equal(logged.length, 0, 'domain errors are answers, not failures to log');

  next = new Error('secret detail');
  assert.deepEqual(await invoker.invoke('fail', {}),
    { status: 500, envelope: { success: false, data: null, error: { code: 'INTERNAL_ERROR', message: 'Internal server error' } } });
  assert.equal(logged.length, 1, 'an unknown error is logged');
});
