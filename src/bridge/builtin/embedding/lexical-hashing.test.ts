import { test } from 'node:test';
import assert from 'node:assert/strict';
import { addHashedFeature, charNgrams, FNV_OFFSET, fnvExtend, hashFeature } from './lexical-hashing.js';

test('hashFeature is a stable unsigned 32-bit FNV-1a', () => {
  assert.equal(hashFeature(''), 0x811c9dc5);
  assert.equal(hashFeature('a'), 0xe40c292c);
  assert.equal(hashFeature('paint'), hashFeature('paint'));
  assert.notEqual(hashFeature('paint'), hashFeature('paints'));
});

test('fnvExtend carries a hash on: a prefix hashed first, then the rest, equals the whole', () => {
  assert.equal(fnvExtend(FNV_OFFSET, 'b:paint sunris'), hashFeature('b:paint sunris'));
  for (const [head, tail] of [['b:paint ', 'sunris'], ['', 'x'], ['c:', 'é<a'], ['b:a ', '']]) {
    assert.equal(fnvExtend(fnvExtend(FNV_OFFSET, head!), tail!), hashFeature(head! + tail!), `${head} + ${tail}`);
  }
});

test('addHashedFeature writes only inside its block and accumulates', () => {
  const target = new Float32Array(20);
  addHashedFeature(target, 10, 10, 'sunrise', 0.5);
  addHashedFeature(target, 10, 10, 'sunrise', 0.5);
  assert.deepEqual([...target.subarray(0, 10)], new Array(10).fill(0));
  const touched = [...target.subarray(10)].filter((value) => value !== 0);
  assert.equal(touched.length, 1);
  assert.equal(Math.abs(touched[0]!), 1);
});

test('charNgrams pads word boundaries', () => {
  assert.deepEqual(charNgrams('cat', 3), ['<ca', 'cat', 'at>']);
  assert.deepEqual(charNgrams('a', 3), ['<a>']);
});
