import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseTimestamp } from './timestamp.js';

test('timestamps with a zone keep their instant', () => {
  assert.equal(parseTimestamp('2026-03-01T10:00:00Z'), '2026-03-01T10:00:00.000Z');
  assert.equal(parseTimestamp('2026-03-01T12:00:00+02:00'), '2026-03-01T10:00:00.000Z');
  assert.equal(parseTimestamp('2026-03-01T12:00:00+0200'), '2026-03-01T10:00:00.000Z');
  assert.equal(parseTimestamp('2026-03-01T10:00:00.123456Z'), '2026-03-01T10:00:00.123Z');
});

test('timestamps without a zone are UTC, whatever the machine zone', () => {
  assert.equal(parseTimestamp('2026-03-01T10:00:00'), '2026-03-01T10:00:00.000Z');
  assert.equal(parseTimestamp('2026-03-01 10:00'), '2026-03-01T10:00:00.000Z');
  assert.equal(parseTimestamp('2026-03-01'), '2026-03-01T00:00:00.000Z');
});

test('anything else is rejected', () => {
  for (const value of ['yesterday', '2026-13-01', '2026-02-30', '01/03/2026', '', '2026-03-01T25:00:00', '1700000000']) {
    assert.equal(parseTimestamp(value), null, value);
  }
});
