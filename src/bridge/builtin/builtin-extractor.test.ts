import { test } from 'node:test';
import assert from 'node:assert/strict';
import { extractEntities } from './builtin-extractor.js';

const sample =
  'On March 3rd, 2024 Alice Johnson met Bob Smith from Acme Corp and Google in Paris, France. ' +
  'Email alice@example.com or ALICE@example.com, or see https://example.com/docs?id=1. ' +
  'We decided to ship by next Friday. Docs: (https://en.wikipedia.org/wiki/Foo_(bar)) and www.test.org. ' +
  'Alice Johnson will call Microsoft in New York on 2024-05-01.';

test('finds people, places and organizations', () => {
  const e = extractEntities(sample);
  assert.ok(e.people.includes('Alice Johnson'), `people: ${e.people}`);
  assert.ok(e.people.includes('Bob Smith'), `people: ${e.people}`);
  assert.ok(e.places.some((p) => p.startsWith('Paris')), `places: ${e.places}`);
  assert.ok(e.places.includes('New York'), `places: ${e.places}`);
  assert.ok(e.organizations.includes('Google'), `orgs: ${e.organizations}`);
  assert.ok(e.organizations.includes('Microsoft'), `orgs: ${e.organizations}`);
});

test('dedupes case-insensitively, keeping the first spelling', () => {
  const e = extractEntities(sample);
  assert.deepEqual(e.emails, ['alice@example.com']);
  assert.equal(e.people.filter((p) => p === 'Alice Johnson').length, 1);
});

test('urls lose sentence punctuation but keep balanced parentheses', () => {
  const e = extractEntities(sample);
  assert.deepEqual(e.urls, ['https://example.com/docs?id=1', 'https://en.wikipedia.org/wiki/Foo_(bar)', 'www.test.org']);
});

test('finds dates', () => {
  const e = extractEntities(sample);
  assert.ok(e.dates.includes('March 3rd, 2024'), `dates: ${e.dates}`);
  assert.ok(e.dates.includes('next Friday'), `dates: ${e.dates}`);
  assert.ok(e.dates.includes('2024-05-01'), `dates: ${e.dates}`);
});

test('email and url parts are not reported as names', () => {
  const e = extractEntities('Write to john.smith@bigcorp.com or visit https://www.paris-hotels.com/rooms today.');
  assert.deepEqual(e.people, []);
  assert.deepEqual(e.places, []);
  assert.deepEqual(e.emails, ['john.smith@bigcorp.com']);
  assert.deepEqual(e.urls, ['https://www.paris-hotels.com/rooms']);
});

test('empty text gives empty lists', () => {
  assert.deepEqual(extractEntities(''), { people: [], places: [], organizations: [], dates: [], emails: [], urls: [] });
});
