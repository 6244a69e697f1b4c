import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { ChatCompletionRequest, ChatProvider } from '../../src/bridge/bridge.providers.js';
import { createLlmSummarizer, trimToWords } from '../../src/bridge/llm-summarizer.js';

function fakeChat(reply: (request: ChatCompletionRequest) => string): ChatProvider & { requests: ChatCompletionRequest[] } {
  const requests: ChatCompletionRequest[] = [];
  return {
    provider: 'ollama',
    model: 'fake',
    requests,
    async complete(request) {
      requests.push(request);
      return { object: 'chat.completion', choices: [{ index: 0, message: { role: 'assistant', content: reply(request) } }] };
    },
    async stream() {
      throw new Error('not used');
    },
    async check() {},
  };
}

test('trimToWords keeps whole sentences, at most one past the target', () => {
  assert.equal(trimToWords('One two three. Four five six. Seven eight.', 4), 'One two three. Four five six.');
  assert.equal(trimToWords('One two three. Four five six.', 3), 'One two three.');
  assert.equal(trimToWords('No punctuation at all here', 2), 'No punctuation at all here');
});

test('long input is summarized map-reduce style', async () => {
  const chat = fakeChat((request) => {
    const prompt = String(request.messages[1]!.content);
    return prompt.includes('PARTIAL') ? 'Final summary.' : 'PARTIAL summary of a chunk.';
  });
  const summarizer = createLlmSummarizer({ chat, model: 'm', maxInputChars: 200 });
  const passages = Array.from({ length: 5 }, (_, i) => `Passage ${i} `.padEnd(60, 'x'));
  const summary = await summarizer.summarize(passages, 50);
  assert.equal(summary, 'Final summary.');
  // 5 passages of 60 chars with a 200-char budget: 2 chunk calls, then the 2 partials in one call.
  assert.equal(chat.requests.length, 3);
  assert.ok(chat.requests.every((r) => r.model === 'm'));
});

test('summaries that never shrink still terminate', async () => {
  const chat = fakeChat(() => 'x'.repeat(150) + '.');
  const summarizer = createLlmSummarizer({ chat, model: 'm', maxInputChars: 200 });
  const summary = await summarizer.summarize(Array.from({ length: 6 }, () => 'y'.repeat(150)), 50);
  assert.ok(summary.length > 0);
  assert.ok(chat.requests.length < 20);
});

test('empty passages need no model call; answers lose a "Summary:" preamble', async () => {
  const chat = fakeChat(() => 'Summary: All good.');
  const summarizer = createLlmSummarizer({ chat, model: 'm' });
  assert.equal(await summarizer.summarize(['', '  '], 20), '');
  assert.equal(chat.requests.length, 0);
  assert.equal(await summarizer.summarize(['text'], 20), 'All good.');
  assert.equal(chat.requests.length, 1, 'control: a passage with text does reach the model, and the probe sees it');
});
