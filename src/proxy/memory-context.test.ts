import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { SelectedMessage } from '../features/context/context.service.js';
import { labelFrom, withSystemMessage } from './chat-request.js';
import { MEMORY_PREAMBLE, renderMemory } from './memory-context.js';

const selected = (content: string, label = 'ops'): SelectedMessage => ({
  score: 0.5,
  hit: {
    key: 1, messageId: 'm', conversationId: 'c', role: 'user', name: null, content, timestamp: '2026-03-04T05:06:07.000Z',
    embeddingId: null, metadata: null, label, folder: '/work', importanceScore: 5, status: 'active', position: 0,
  },
});

test('renders cited entries after the preamble', () => {
  const memory = renderMemory([selected('first fact'), selected('second fact', 'misc')], 1000)!;
  assert.equal(memory.content,
    `${MEMORY_PREAMBLE}\n\n[ops | /work | 2026-03-04 | user]\nfirst fact\n\n[misc | /work | 2026-03-04 | user]\nsecond fact`);
  assert.equal(memory.entries, 2);
  assert.equal(memory.tokens, Math.ceil(memory.content.length / 4));
  assert.equal(renderMemory([], 1000), null);
});

test('never exceeds the budget: drops the weakest entries, then cuts', () => {
  const long = 'x'.repeat(300);
  const memory = renderMemory([selected(long), selected(long), selected(long)], 150)!;
  assert.ok(memory.tokens <= 150);
  assert.equal(memory.entries, 1);
  const cut = renderMemory([selected('y'.repeat(2000))], 100)!;
  assert.equal([...cut.content].length, 400);
  assert.ok(cut.content.endsWith('…'));
  assert.equal(cut.tokens, 100);
});

test('the memory message goes after the client\'s leading system messages', () => {
  const messages = [{ role: 'system', content: 'a' }, { role: 'developer', content: 'b' }, { role: 'user', content: 'c' }];
  assert.deepEqual(withSystemMessage(messages, 'M').map((m) => m.content), ['a', 'b', 'M', 'c']);
  assert.deepEqual(withSystemMessage([{ role: 'user', content: 'c' }], 'M').map((m) => m.role), ['system', 'user']);
});

test('labels from the first user message: one line, cut at a word', () => {
  assert.equal(labelFrom('  How do I\nrotate keys?  ', 200), 'How do I rotate keys?');
  assert.equal(labelFrom('', 200), 'Chat');
  const long = labelFrom('word '.repeat(40), 200);
  assert.ok([...long].length <= 60 && long.endsWith('…') && !long.includes('wor…'), long);
  assert.equal([...labelFrom('z'.repeat(100), 10)].length, 10);
});
