import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { FilterSampleCache } from './filter-sample-cache.js';

describe('FilterSampleCache', () => {
  test('reads a filter\'s sample once, again after five minutes or when its matches move by more than a tenth', () => {
    let now = 0;
    let reads = 0;
    const cache = new FilterSampleCache(() => now);
    const read = () => { reads += 1; return new Float32Array([reads]); };
    assert.deepEqual([...cache.get({ folder: '/a' }, 1000, read)], [1]);
    assert.deepEqual([...cache.get({ folder: '/a' }, 1090, read)], [1], 'kept: 9% more matches');
    assert.deepEqual([...cache.get({ folder: '/b' }, 1000, read)], [2], 'another filter has its own');
    assert.deepEqual([...cache.get({ folder: '/a' }, 1101, read)], [3], 'read again: more than 10% more matches');
    now += 5 * 60_000 - 1;
    assert.deepEqual([...cache.get({ folder: '/a' }, 1101, read)], [3]);
    now += 1;
    assert.deepEqual([...cache.get({ folder: '/a' }, 1101, read)], [4], 'read again: five minutes old');
  });

  test('keeps the 16 filters used last', () => {
    let reads = 0;
    const cache = new FilterSampleCache(() => 0);
    const read = () => { reads += 1; return new Float32Array(0); };
    for (let i = 0; i < 17; i += 1) cache.get({ folder: `/f${i}` }, 100, read);
    assert.equal(reads, 17);
    cache.get({ folder: '/f16' }, 100, read);
    cache.get({ folder: '/f1' }, 100, read);
    assert.equal(reads, 17, 'the newest sixteen are kept');
    cache.get({ folder: '/f0' }, 100, read);
    assert.equal(reads, 18, 'the oldest went');
  });
});
