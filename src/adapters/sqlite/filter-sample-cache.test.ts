import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { FilterSampleCache } from './filter-sample-cache.js';

describe('FilterSampleCache', () => {
  test('reads a filter\'s sample once, again after five minutes or when its matches move by more than a tenth', async () => {
    let now = 0;
    let reads = 0;
    const cache = new FilterSampleCache(() => now);
    const read = async () => { reads += 1; return new Float32Array([reads]); };
    assert.deepEqual([...await cache.get({ folder: '/a' }, 1000, read)], [1]);
    assert.deepEqual([...await cache.get({ folder: '/a' }, 1090, read)], [1], 'kept: 9% more matches');
    assert.deepEqual([...await cache.get({ folder: '/b' }, 1000, read)], [2], 'another filter has its own');
    assert.deepEqual([...await cache.get({ folder: '/a' }, 1101, read)], [3], 'read again: more than 10% more matches');
    now += 5 * 60_000 - 1;
    assert.deepEqual([...await cache.get({ folder: '/a' }, 1101, read)], [3]);
    now += 1;
    assert.deepEqual([...await cache.get({ folder: '/a' }, 1101, read)], [4], 'read again: five minutes old');
  });

  test('a filter noted concentrated stays so while its sample is kept and no later search finds otherwise, and not once the sample is read again', async () => {
    let now = 0;
    const cache = new FilterSampleCache(() => now);
    const read = async () => new Float32Array(1);
    cache.noteConcentrated({ folder: '/a' }, true);
    assert.equal(cache.isConcentrated({ folder: '/a' }, 1000), false, 'no sample, nothing to mark');
    await cache.get({ folder: '/a' }, 1000, read);
    assert.equal(cache.isConcentrated({ folder: '/a' }, 1000), false, 'not until a search finds it so');
    cache.noteConcentrated({ folder: '/a' }, true);
    assert.equal(cache.isConcentrated({ folder: '/a' }, 1090), true);
    cache.noteConcentrated({ folder: '/a' }, false);
    assert.equal(cache.isConcentrated({ folder: '/a' }, 1000), false, 'a later search that finds otherwise takes it back');
    cache.noteConcentrated({ folder: '/a' }, true);
    assert.equal(cache.isConcentrated({ folder: '/b' }, 1000), false, 'another filter is not');
    assert.equal(cache.isConcentrated({ folder: '/a' }, 1101), false, 'its matches moved by more than a tenth');
    now += 5 * 60_000;
    assert.equal(cache.isConcentrated({ folder: '/a' }, 1000), false, 'five minutes old');
    await cache.get({ folder: '/a' }, 1000, read);
    assert.equal(cache.isConcentrated({ folder: '/a' }, 1000), false, 'a new sample starts unmarked');
  });

  test('keeps the 16 filters used last', async () => {
    let reads = 0;
    const cache = new FilterSampleCache(() => 0);
    const read = async () => { reads += 1; return new Float32Array(0); };
    for (let i = 0; i < 17; i += 1) await cache.get({ folder: `/f${i}` }, 100, read);
    assert.equal(reads, 17);
    await cache.get({ folder: '/f16' }, 100, read);
    await cache.get({ folder: '/f1' }, 100, read);
    assert.equal(reads, 17, 'the newest sixteen are kept');
    await cache.get({ folder: '/f0' }, 100, read);
    assert.equal(reads, 18, 'the oldest went');
  });

  test('searches arriving while a filter\'s sample is read share that read', async () => {
    let reads = 0;
    let finish!: (sample: Float32Array) => void;
    const cache = new FilterSampleCache(() => 0);
    const read = () => { reads += 1; return new Promise<Float32Array>((resolve) => { finish = resolve; }); };
    const first = cache.get({ folder: '/a' }, 100, read);
    const second = cache.get({ folder: '/a' }, 100, read);
    finish(new Float32Array([7]));
    assert.deepEqual([...await first], [7]);
    assert.deepEqual([...await second], [7]);
    assert.equal(reads, 1);
  });

  test('a read that failed is not kept: the next search reads again', async () => {
    let reads = 0;
    const cache = new FilterSampleCache(() => 0);
    const failing = async (): Promise<Float32Array> => { reads += 1; throw new Error('the thread died'); };
    await assert.rejects(cache.get({ folder: '/a' }, 100, failing), /the thread died/);
    const sample = await cache.get({ folder: '/a' }, 100, async () => { reads += 1; return new Float32Array([1]); });
    assert.deepEqual([...sample], [1]);
    assert.equal(reads, 2);
  });
});
