import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { validate, version } from 'uuid';
import { newMessageId } from './ids.js';

describe('newMessageId', () => {
  test('gives valid, distinct version-7 UUIDs that only ever increase, many to a millisecond and across pool refills', () => {
    const ids = Array.from({ length: 5000 }, () => newMessageId());
    for (const id of ids) {
      assert.ok(validate(id), id);
      assert.equal(version(id), 7);
      // RFC 9562 variant: the first hex digit of the fourth group is 8, 9, a or b.
      assert.match(id[19]!, /[89ab]/);
    }
    assert.equal(new Set(ids).size, ids.length);
    for (let i = 1; i < ids.length; i += 1) assert.ok(ids[i]! > ids[i - 1]!, `${ids[i]} after ${ids[i - 1]}`);
  });

  test('begins with its creation time in milliseconds', () => {
    const before = Date.now();
    const id = newMessageId();
    const after = Date.now();
    const msecs = Number.parseInt(id.replace(/-/g, '').slice(0, 12), 16);
    // A counter that overflowed borrows the next millisecond; one id cannot have borrowed more than that.
    assert.ok(msecs >= before && msecs <= after + 1, `${msecs} outside ${before}..${after + 1}`);
  });
});
