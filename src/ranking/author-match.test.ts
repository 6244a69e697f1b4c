import { test } from 'node:test';
import assert from 'node:assert/strict';
import { authorOf, favourNamedAuthors, messageAuthor, namesAuthor, queryWords } from './author-match.js';

test('authorOf reads a transcript-style "Name:" prefix and nothing else', () => {
  assert.equal(authorOf('Melanie: I painted a sunrise'), 'Melanie');
  assert.equal(authorOf('  Mary Ann Evans: hello'), 'Mary Ann Evans');
  assert.equal(authorOf('José: ¡hola!'), 'José');
  assert.equal(authorOf('I painted a sunrise: it was lovely'), null);
  assert.equal(authorOf('note: lowercase is not a name'), null);
  assert.equal(authorOf('https://example.com'), null);
  assert.equal(authorOf('Http://example.com is down'), null);
});

test('a message\'s author is its name when it has one, else the "Name:" its content starts with', () => {
  assert.equal(messageAuthor({ name: 'Melanie', content: 'Caroline: quoting her, "I painted a sunrise"' }), 'Melanie');
  assert.equal(messageAuthor({ name: 'Melanie', content: 'I painted a sunrise' }), 'Melanie');
  assert.equal(messageAuthor({ name: null, content: 'Caroline: I painted a sunrise' }), 'Caroline');
  assert.equal(messageAuthor({ name: null, content: 'I painted a sunrise' }), null);
});

test('a name counts as asked for when all its words are in the query, possessives included', () => {
  assert.equal(namesAuthor(queryWords("What is Caroline's identity?"), 'Caroline'), true);
  assert.equal(namesAuthor(queryWords('What did Mary say?'), 'Mary Ann'), false);
  assert.equal(namesAuthor(queryWords('what did jose cook'), 'José'), true);
});

// "What did Melanie paint?": Caroline's message mentions Melanie and painting, but the answer is what Melanie said.
test('the named author\'s message overtakes a message that only mentions the name', () => {
  const contents = new Map([
    [1, 'Caroline: Melanie, your painting of the lake is gorgeous!'],
    [2, 'Melanie: Here is the horse I painted last week.'],
    [3, 'Melanie: Off to the beach with the kids.'],
  ]);
  const ranking = [{ key: 1, score: 1 }, { key: 2, score: 0.8 }, { key: 3, score: 0.2 }];
  const out = favourNamedAuthors('What did Melanie paint?', ranking, (key) => authorOf(contents.get(key)!), 0.5);
  assert.deepEqual(out.map((item) => item.key), [2, 1, 3]);
  assert.equal(out[0]!.score, 1);
});

test('a query naming no author, or weight 0, leaves the order alone', () => {
  const ranking = [{ key: 1, score: 1 }, { key: 2, score: 0.8 }];
  const author = (key: number) => (key === 2 ? 'Melanie' : 'Caroline');
  assert.deepEqual(favourNamedAuthors('what was painted?', ranking, author, 0.5).map((item) => item.key), [1, 2]);
  assert.deepEqual(favourNamedAuthors('What did Melanie paint?', ranking, author, 0), ranking);
});
