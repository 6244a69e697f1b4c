import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { ConflictError } from '../../domain/errors.js';
import { ImportSequence } from './import-sequence.js';

const outOfSequence = (pattern: RegExp) => (error: unknown) =>
  error instanceof ConflictError && error.code === 'OUT_OF_SEQUENCE' && pattern.test(error.message);

describe('ImportSequence', () => {
  test('a batch that never arrives is out of sequence once the wait is over; one that arrives in time is followed', async () => {
    const sequence = new ImportSequence({ unknownWaitMs: 50, keepMs: 60_000 });
    await assert.rejects(sequence.follow('never'), outOfSequence(/never, which this one follows, is unknown/));

    const following = sequence.follow('late');
    const ticket = sequence.begin('late');
    let followed = false;
    void following.then(() => { followed = true; });
    await new Promise((resolve) => setTimeout(resolve, 80));
    assert.equal(followed, false, 'an arrived batch is waited for until it settles, past the wait for arrival');
    ticket.settle(true);
    await following;
  });

  test('settling twice keeps the first outcome', async () => {
    const sequence = new ImportSequence({ unknownWaitMs: 10, keepMs: 60_000 });
    const ticket = sequence.begin('once');
    ticket.settle(false);
    ticket.settle(true);
    await assert.rejects(sequence.follow('once'), outOfSequence(/once, which this one follows, was not stored/));
  });

  test('outcomes are forgotten after keepMs', async () => {
    let now = 1_000;
    const sequence = new ImportSequence({ unknownWaitMs: 0, keepMs: 1_000, now: () => now });
    sequence.begin('old').settle(true);
    await sequence.follow('old');
    now += 2_000;
    sequence.begin('new').settle(true);
    await assert.rejects(sequence.follow('old'), outOfSequence(/is unknown/));
    await sequence.follow('new');
    assert.doesNotThrow(() => sequence.begin('old'), 'a forgotten name may be used again');
  });
});
