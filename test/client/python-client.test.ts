import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { FakeBridge } from '../helpers/fake-bridge.js';
import { type RunningService, startService } from '../helpers/service-harness.js';

const PYTHON_CLIENT = fileURLToPath(new URL('../../clients/python', import.meta.url));
const PYTHON_TESTS = fileURLToPath(new URL('../../clients/python/tests', import.meta.url));
const pythonMissing = spawnSync('python3', ['--version']).error !== undefined;

interface Run { code: number | null; output: string }

/** Runs a command to completion without blocking this process's event loop: the service answers from it. */
function run(command: string, args: string[], env: NodeJS.ProcessEnv): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { env, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk) => { output += chunk; });
    child.stderr.on('data', (chunk) => { output += chunk; });
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, output }));
  });
}

/** The Python client's unittest suite (clients/python/tests) against a real service with a stand-in bridge. */
describe('Python client against a real server', { skip: pythonMissing && 'python3 is not on PATH' }, () => {
  let bridge: FakeBridge;
  let server: RunningService;
  before(async () => {
    bridge = await new FakeBridge().start();
    server = await startService({ bridge: { url: bridge.url } });
  });
  after(async () => {
    await server?.stop();
    await bridge?.stop();
  });

  test('python3 -m unittest discover -s clients/python/tests passes', { timeout: 300_000 }, async () => {
    const env: NodeJS.ProcessEnv = {};
    for (const [name, value] of Object.entries(process.env)) if (!name.startsWith('MEMSVC_')) env[name] = value;
    const result = await run('python3', ['-m', 'unittest', 'discover', '-s', PYTHON_TESTS, '-v'], {
      ...env,
      MEMSVC_BASE_URL: server.baseUrl,
      MEMSVC_API_KEY: server.apiKey,
      PYTHONPATH: PYTHON_CLIENT,
      PYTHONDONTWRITEBYTECODE: '1',
      PYTHONUNBUFFERED: '1',
    });
    assert.equal(result.code, 0, `the Python client's tests failed:\n${result.output}`);
    assert.match(result.output, /\nOK\b/, result.output);
    // The suite skips service tests without MEMSVC_BASE_URL; here every one of them ran.
    assert.doesNotMatch(result.output, /MEMSVC_BASE_URL and MEMSVC_API_KEY are not set|tenancy endpoints not present/, result.output);
  });
});
