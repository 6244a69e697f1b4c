import { test } from 'node:test';
import assert from 'node:assert/strict';
import { CompletionStreamReader, readCompletion } from './completion-reader.js';

const chunk = (content: string, index = 0) =>
  `data: ${JSON.stringify({ model: 'm1', choices: [{ index, delta: { content } }] })}\n\n`;

test('assembles the first choice\'s deltas across arbitrary byte splits, multi-byte characters included', () => {
  const wire = Buffer.from(`${chunk('Grüß ')}${chunk('other', 1)}${chunk('dich 👋')}data: [DONE]\n\n`);
  const reader = new CompletionStreamReader();
  for (let i = 0; i < wire.length; i += 3) reader.push(wire.subarray(i, i + 3));
  assert.deepEqual(reader.end(), { content: 'Grüß dich 👋', model: 'm1' });
  assert.equal(reader.done, true);
  assert.equal(reader.failed, false);
});

test('CRLF events, a last event without its blank line, and an error event', () => {
  const reader = new CompletionStreamReader();
  reader.push(Buffer.from(`data: ${JSON.stringify({ choices: [{ delta: { content: 'a' } }] })}\r\n\r\n`));
  reader.push(Buffer.from(`data: ${JSON.stringify({ error: { message: 'boom' } })}`));
  assert.equal(reader.end().content, 'a');
  assert.equal(reader.failed, true);
});

test('readCompletion takes the first choice of a plain answer; anything else is null', () => {
  assert.deepEqual(readCompletion(JSON.stringify({ model: 'm', choices: [{ index: 0, message: { content: 'hi' } }] })),
    { content: 'hi', model: 'm' });
  assert.deepEqual(readCompletion(JSON.stringify({ choices: [{ index: 0, message: { content: null, tool_calls: [] } }] })),
    { content: '' });
  assert.equal(readCompletion('not json'), null);
  assert.equal(readCompletion('{"object":"list"}'), null);
});
