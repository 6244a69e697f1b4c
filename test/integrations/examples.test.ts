import { afterEach, beforeEach, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { createMemsvcClient, type MemsvcClient } from '../../src/client/index.js';
import { type RunningService, startService } from '../helpers/service-harness.js';

const run = promisify(execFile);
const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const EXAMPLES = join(ROOT, 'examples', 'integrations');
const DOC = join(ROOT, 'docs', 'integrations.md');
const NAMES = ['ai-sdk', 'langchain', 'openai-agents', 'mastra'];

/**
 * The examples of docs/integrations.md are files under examples/integrations/, each a code block of the
 * doc verbatim (its first line names the file). Each runs here as a user runs it, against a real memsvc:
 * its own process, `memsvc/...` imports (tsconfig paths map them to src/ for tsx), the URL and key from
 * the environment.
 */
describe('the integration examples', () => {
  test('every example is in docs/integrations.md verbatim, and every block there that names a file is that file', () => {
    const doc = readFileSync(DOC, 'utf8');
    const blocks = [...doc.matchAll(/```ts\n(\/\/ (examples\/integrations\/[^\n]+)\n[\s\S]*?)```/g)].map((match) => ({ file: match[2]!, code: match[1]! }));
    assert.deepEqual(readdirSync(EXAMPLES).sort(), NAMES.map((name) => `${name}.ts`).sort());
    assert.deepEqual(blocks.map((block) => block.file).sort(), NAMES.map((name) => `examples/integrations/${name}.ts`).sort());
    for (const { file, code } of blocks) assert.equal(code, readFileSync(join(ROOT, file), 'utf8'), `${file} and its block in docs/integrations.md differ`);
  });

  describe('each run against a fresh memsvc', () => {
    let server: RunningService;
    let client: MemsvcClient;
    beforeEach(async () => {
      server = await startService();
      client = createMemsvcClient({ baseUrl: server.baseUrl, apiKey: server.apiKey });
    });
    afterEach(() => server.stop());

    const runExample = async (name: string) => {
      const env: NodeJS.ProcessEnv = { ...process.env, MEMSVC_BASE_URL: server.baseUrl, MEMSVC_API_KEY: server.apiKey };
      const { stdout } = await run(process.execPath, ['--import', 'tsx', join(EXAMPLES, `${name}.ts`)], { cwd: ROOT, env, timeout: 60_000 });
      return stdout;
    };

    test('ai-sdk', async () => {
      const output = await runExample('ai-sdk');
      const lines = output.trim().split('\n');
      // The example's model echoes the memory's first message line (`role: content`, under its conversation's header).
      assert.equal(lines[0], 'From memory: user: The staging deploy needs the VPN profile called kestrel');
      // The second call's memory holds the first exchange too, which may rank first.
      assert.match(lines[1]!, /^From memory: \S/);
      const id = /^stored in conversation (\S+)$/.exec(lines[2]!)?.[1];
      assert.ok(id, output);
      const conversation = await client.conversations.get(id);
      assert.deepEqual([conversation.label, conversation.folder, conversation.message_count], ['deploy help', '/chat', 4]);
      assert.match(lines[3]!, /^From memory: .*VPN profile called kestrel$/, 'memory_search found it');
    });

    test('langchain', async () => {
      const output = await runExample('langchain');
      const lines = output.trim().split('\n');
      assert.match(lines[0]!, /^\d\.\d\d \[db migration\] The migration deadlocked on the orders table$/);
      const rest = lines.slice(-3);
      assert.deepEqual(rest.slice(0, 2), ['Split the migration into two transactions.', 'You asked about the deadlock.']);
      const [, id, count] = /^history in conversation (\S+): (\d+) messages$/.exec(rest[2]!) ?? [];
      assert.equal(count, '4');
      assert.equal((await client.conversations.get(id!)).label, 'migration help');
    });

    test('openai-agents', async () => {
      const output = await runExample('openai-agents');
      const [answer, session] = output.trim().split('\n');
      assert.equal(answer, 'From memory: The staging deploy needs the VPN profile called kestrel');
      const [, id, count] = /^session (\S+): (\d+) items$/.exec(session!) ?? [];
      assert.equal(count, '4', 'the question, the tool call, its result and the answer');
      const conversation = await client.conversations.get(id!);
      assert.deepEqual([conversation.label, conversation.folder, conversation.message_count], ['deploy help', '/agents', 4]);
    });

    test('mastra', async () => {
      const output = await runExample('mastra');
      const lines = output.trim().split('\n');
      assert.equal(lines[0], 'Use the kestrel VPN profile.');
      const id = /stored in conversation (\S+)$/.exec(lines.at(-1)!)?.[1];
      assert.ok(id, output);
      const conversation = await client.conversations.get(id);
      assert.deepEqual([conversation.label, conversation.folder, conversation.message_count], ['deploy help', '/chat', 4]);
    });
  });
});
