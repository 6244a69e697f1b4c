import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { startService, type RunningService } from '../helpers/service-harness.js';

const MAX_MESSAGES = 5;
const message = (content = 'hello', extra: Record<string, unknown> = {}) => ({ role: 'user', content, ...extra });
const body = (extra: Record<string, unknown> = {}) => ({ label: 'parity', messages: [message()], ...extra });

/** The create-validation cases of test/api (errors, limits, folders, conversations): bodies create accepts or refuses. */
const CASES: Array<[string, Record<string, unknown>]> = [
  ['a plain conversation', body()],
  ['no messages yet', body({ messages: [] })],
  ['folder normalized', body({ folder: '/work//backend/' })],
  ['importance alias', body({ importance: 7 })],
  ['label of exactly the limit', body({ label: 'L'.repeat(200) })],
  ['timestamp without a zone', body({ messages: [message('hi', { timestamp: '2025-01-10 09:30:00' })] })],
  ['metadata under the limit', body({ messages: [message('x', { metadata: { blob: 'x'.repeat(15 * 1024) } })] })],
  ['message of exactly the limit', body({ messages: [message('m'.repeat(100_000))] })],
  ['messages up to the limit', body({ messages: Array.from({ length: MAX_MESSAGES }, () => message()) })],
  ['label missing', { messages: [] }],
  ['messages missing', { label: 'x' }],
  ['content missing', body({ messages: [{ role: 'user' }] })],
  ['role missing', body({ messages: [message(), { content: 'b' }] })],
  ['label a number', body({ label: 123 })],
  ['label a boolean', body({ label: true })],
  ['label an object', body({ label: { a: 1 } })],
  ['messages a string', body({ messages: 'hello' })],
  ['messages an object', body({ messages: message() })],
  ['content a number', body({ messages: [{ role: 'user', content: 5 }] })],
  ['folder a number', body({ folder: 7 })],
  ['metadata a string', body({ messages: [message('a', { metadata: 'str' })] })],
  ['metadata an array', body({ messages: [message('a', { metadata: [1] })] })],
  ['timestamp not a date', body({ messages: [message('a', { timestamp: 'yesterday' })] })],
  ['bad role', body({ messages: [{ role: 'robot', content: 'a' }] })],
  ['unknown field', body({ colour: 'red' })],
  ['unknown message field', body({ messages: [message('a', { extra: 1 })] })],
  ...[0, 11, -1, 5.5, 'x', '7'].flatMap((value): Array<[string, Record<string, unknown>]> => [
    [`importance_score ${JSON.stringify(value)}`, body({ importance_score: value })],
    [`importance ${JSON.stringify(value)}`, body({ importance: value })],
  ]),
  ['empty label', body({ label: '' })],
  ['blank label', body({ label: '   ' })],
  ['empty content', body({ messages: [message('')] })],
  ['NUL in the label', body({ label: 'bad\u0000label' })],
  ['a control character in the label', body({ label: 'bell\u0007label' })],
  ['label over the limit', body({ label: 'L'.repeat(201) })],
  ['folder without a leading slash', body({ folder: 'no-slash' })],
  ['folder with ..', body({ folder: '/a/../b' })],
  ['folder with .', body({ folder: '/a/./b' })],
  ['folder with a control character', body({ folder: '/a\u0001b' })],
  ['metadata over the limit', body({ messages: [message('x', { metadata: { blob: 'x'.repeat(17 * 1024) } })] })],
  ['message over the limit', body({ messages: [message('m'.repeat(100_001))] })],
  ['NUL in a message', body({ messages: [message('nul \u0000 here')] })],
  ['more messages than the limit', body({ messages: Array.from({ length: MAX_MESSAGES + 1 }, () => message()) })],
];

interface Verdict { ok: boolean; code?: string; error?: string }

describe('import and the memory_store tool give create\'s verdict on every create-validation case', () => {
  let running: RunningService;
  before(async () => {
    running = await startService({
      overrides: { embedding_worker: { enabled: false }, limits: { max_messages_per_conversation: MAX_MESSAGES } } });
  });
  after(async () => {
    await running.stop();
  });

  const create = async (record: unknown): Promise<Verdict> => {
    const { status, body: answer } = await running.api('POST', '/api/v1/conversations', record);
    return status === 201 ? { ok: true } : { ok: false, code: answer.code, error: answer.error };
  };
  // The same record as the only conversation of a json export; errors name it as conversations[0].
  const importOne = async (record: unknown): Promise<Verdict> => {
    const { status, body: answer } = await running.api('POST', '/api/v1/import', { conversations: [record] });
    if (status === 200) return { ok: answer.imported === 1 };
    return { ok: false, code: answer.code, error: String(answer.error).replace(/^conversations\[0\]\.?/, '') };
  };
  const storeTool = async (record: unknown): Promise<Verdict> => {
    const { body: envelope } = await running.api('POST', '/mcp/tools/memory_store', record);
    return envelope.success ? { ok: true } : { ok: false, code: envelope.error.code, error: envelope.error.message };
  };

  for (const [name, record] of CASES) {
    test(name, async () => {
      const expected = await create(record);
      assert.deepEqual(await importOne(record), expected, 'import');
      assert.deepEqual(await storeTool(record), expected, 'memory_store');
    });
  }

  test('the cases cover both verdicts, and what was accepted was stored three times', async () => {
    const verdicts = await Promise.all(CASES.map(([, record]) => create(record)));
    const accepted = verdicts.filter((v) => v.ok).length;
    assert.ok(accepted >= 5 && verdicts.length - accepted >= 30, `${accepted} accepted of ${verdicts.length}`);
    // Each accepted case was stored by create, import and the tool in its test, and once more just now.
    assert.equal((await running.api('GET', '/api/v1/conversations/count')).body.count, accepted * 4);
  });
});
