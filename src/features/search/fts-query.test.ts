import { test } from 'node:test';
import assert from 'node:assert/strict';
import Database from 'better-sqlite3';
import { bm25Expression, FTS_TOKENIZER, ftsTableDdl, queryTerms, toContextColumn, toMatchAnyQuery } from './fts-query.js';

test('toMatchAnyQuery keeps content words as quoted OR terms', () => {
  assert.equal(toMatchAnyQuery('When did Caroline go to the LGBTQ support group?'), '"caroline" OR "go" OR "lgbtq" OR "support" OR "group"');
});

test('toMatchAnyQuery returns null when only stopwords or punctuation remain', () => {
  assert.equal(toMatchAnyQuery('What did you do?'), null);
  assert.equal(toMatchAnyQuery('  ?!* "" '), null);
});

test('queryTerms deduplicates and caps the number of terms', () => {
  assert.deepEqual(queryTerms('paint paint PAINT sunrise'), ['paint', 'sunrise']);
  assert.equal(queryTerms('a1 b2 c3 d4 e5', 3).length, 3);
});

test('FTS5 syntax in user input is neutralised and the query runs', () => {
  const db = new Database(':memory:');
  db.exec(`CREATE VIRTUAL TABLE m USING fts5(content, tokenize = '${FTS_TOKENIZER}')`); // single-column form works too
  db.prepare('INSERT INTO m(content) VALUES (?)').run('Melanie: I painted a sunrise at the lake');
  db.prepare('INSERT INTO m(content) VALUES (?)').run('Caroline: the support group was powerful');
  const hostile = 'content:"sunrise" NEAR(paint* lake) OR ) ( AND NOT ^group';
  const match = toMatchAnyQuery(hostile);
  assert.ok(match !== null && !/[*^():]/.test(match.replace(/"[^"]*"/g, '')));
  const rows = db.prepare('SELECT content FROM m WHERE m MATCH ? ORDER BY bm25(m)').all(match) as Array<{ content: string }>;
  assert.equal(rows.length, 2);
  // Porter stemming: "painting" in a question finds "painted".
  const stemmed = db.prepare('SELECT content FROM m WHERE m MATCH ?').all(toMatchAnyQuery('Who was painting?')) as Array<{ content: string }>;
  assert.deepEqual(stemmed.map((row) => row.content), ['Melanie: I painted a sunrise at the lake']);
  db.close();
});

test('the context column lets a reply match the words of the message it answers', () => {
  const db = new Database(':memory:');
  db.exec(ftsTableDdl('m'));
  const messages = [
    ['a', 'Melanie: What did you take away from Becoming Nicole?'],
    ['b', 'Caroline: It taught me self-acceptance.'],
    ['c', 'Melanie: Nice weather today.'],
  ] as const;
  const insert = db.prepare('INSERT INTO m(rowid, content, context) VALUES (?, ?, ?)');
  messages.forEach(([, content], i) => insert.run(i + 1, content, toContextColumn(messages[i - 1]?.[1], messages[i + 1]?.[1])));
  const rows = db.prepare(`SELECT rowid AS key FROM m WHERE m MATCH ? ORDER BY ${bm25Expression('m')}`)
    .all(toMatchAnyQuery('What did Caroline take away from the book Becoming Nicole?')) as Array<{ key: number }>;
  // Message b never says "Becoming Nicole" but is found through its context column.
  assert.deepEqual(rows.map((row) => messages[row.key - 1]![0]).slice(0, 2).sort(), ['a', 'b']);
  db.close();
});

test('toContextColumn skips missing neighbours and ftsTableDdl rejects odd table names', () => {
  assert.equal(toContextColumn(undefined, 'next'), 'next');
  assert.equal(toContextColumn('prev', 'next'), 'prev\nnext');
  assert.equal(toContextColumn(undefined, undefined), '');
  assert.match(ftsTableDdl('message_fts'), new RegExp(FTS_TOKENIZER));
  assert.throws(() => ftsTableDdl('x; DROP TABLE y'));
});
