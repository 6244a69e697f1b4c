import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { unusedPort } from '../helpers/fake-bridge.js';
import { removeDir } from '../helpers/service-harness.js';
import { waitFor } from '../helpers/wait-for.js';

const run = promisify(execFile);
const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const VERSION = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string }).version;
const SHARED_CACHE = join(ROOT, '.cache', 'models', 'glove-sg-100d.v1.bin');
/** The framework adapters (subpath exports) and the package each one loads. */
const ADAPTERS = [
  { name: 'ai-sdk', framework: 'ai' },
  { name: 'langchain', framework: '@langchain/core' },
  { name: 'openai-agents', framework: '@openai/agents' },
  { name: 'mastra', framework: '@mastra/core' },
];

/**
 * The package as a user gets it: `npm pack`, installed into an empty directory, run with npx,
 * data in the platform directories. (dist/ is built by `prepare`/`prepack`; the suite builds it
 * first when sources changed, so packing here does not rebuild web/dist under the UI tests.)
 */
describe('npm pack, installed into an empty directory', () => {
  let work: string;
  let app: string;
  let env: NodeJS.ProcessEnv;
  let service: ChildProcess | null = null;

  before(async () => {
    work = mkdtempSync(join(tmpdir(), 'memsvc-pack-'));
    app = join(work, 'app');
    mkdirSync(app);
    await run(process.execPath, [join(ROOT, 'scripts', 'build-if-stale.mjs')], { cwd: ROOT });
    const { stdout } = await run('npm', ['pack', '--ignore-scripts', '--json', '--pack-destination', work], { cwd: ROOT });
    const tarball = join(work, (JSON.parse(stdout) as Array<{ filename: string }>)[0]!.filename);
    // Dependencies come from the npm cache when they are there. Install scripts are skipped: the
    // native addon's own download-or-compile step is not under test, and it reuses this checkout's build.
    await run('npm', ['install', '--prefer-offline', '--ignore-scripts', '--no-audit', '--no-fund', tarball], { cwd: app });
    const addon = join('node_modules', 'better-sqlite3', 'build', 'Release');
    mkdirSync(join(app, addon), { recursive: true });
    copyFileSync(join(ROOT, addon, 'better_sqlite3.node'), join(app, addon, 'better_sqlite3.node'));

    env = {};
    for (const [name, value] of Object.entries(process.env)) if (!name.startsWith('MEMSVC_') && !name.startsWith('npm_')) env[name] = value;
    Object.assign(env, {
      XDG_DATA_HOME: join(work, 'xdg-data'), XDG_CONFIG_HOME: join(work, 'xdg-config'),
      MEMSVC_PORT: String(await unusedPort()), MEMSVC_BRIDGE_PORT: String(await unusedPort()),
    });
    if (existsSync(SHARED_CACHE)) {
      mkdirSync(join(work, 'xdg-data', 'memsvc', 'cache'), { recursive: true });
      copyFileSync(SHARED_CACHE, join(work, 'xdg-data', 'memsvc', 'cache', 'glove-sg-100d.v1.bin'));
    }
  });
  after(() => {
    if (service?.pid !== undefined) {
      try { process.kill(-service.pid, 'SIGKILL'); } catch { /* already gone */ }
    }
    removeDir(work);
  });

  test('the tarball holds the build, the UI, the licence and no sources or tests', async () => {
    const { stdout } = await run('npm', ['pack', '--dry-run', '--ignore-scripts', '--json'], { cwd: ROOT });
    const files = (JSON.parse(stdout) as Array<{ files: Array<{ path: string }> }>)[0]!.files.map((f) => f.path);
    for (const expected of ['dist/cli.js', 'dist/main.js', 'dist/client/index.js', 'dist/client/index.d.ts', 'web/dist/index.html', 'LICENSE', 'README.md']) {
      assert.ok(files.includes(expected), expected);
    }
    for (const adapter of ADAPTERS) {
      for (const file of [`dist/integrations/${adapter.name}/index.js`, `dist/integrations/${adapter.name}/index.d.ts`]) assert.ok(files.includes(file), file);
    }
    assert.equal(files.filter((path) => path.startsWith('src/') || path.startsWith('test/') || path.endsWith('.test.js')).length, 0);
  });

  test('the adapter subpaths resolve into dist/, and memsvc/client loads without any framework installed', async () => {
    // The frameworks are optional peers: installing memsvc installs none of them.
    const script = `
      const { createMemsvcClient } = await import('memsvc/client');
      const adapters = {};
      for (const name of ${JSON.stringify(ADAPTERS.map((adapter) => adapter.name))}) {
        const error = await import('memsvc/' + name).then(() => null, (failure) => failure);
        adapters[name] = { resolved: import.meta.resolve('memsvc/' + name), code: error?.code, message: error?.message };
      }
      console.log(JSON.stringify({ client: typeof createMemsvcClient, adapters }));`;
    const { stdout } = await run(process.execPath, ['--input-type=module', '-e', script], { cwd: app, env });
    const { client, adapters } = JSON.parse(stdout) as { client: string; adapters: Record<string, { resolved: string; code?: string; message?: string }> };
    assert.equal(client, 'function');
    for (const { name, framework } of ADAPTERS) {
      const adapter = adapters[name]!;
      assert.ok(adapter.resolved.endsWith(`/node_modules/memsvc/dist/integrations/${name}/index.js`), adapter.resolved);
      // Importing an adapter is what loads its framework: here, the missing peer.
      assert.equal(adapter.code, 'ERR_MODULE_NOT_FOUND', JSON.stringify(adapter));
      assert.ok(adapter.message?.includes(`'${framework}`), JSON.stringify(adapter));
    }
  });

  test('npx memsvc --version, then npx memsvc start until /health is 200, with data in the platform dir', async () => {
    const version = await run('npx', ['memsvc', '--version'], { cwd: app, env });
    assert.equal(version.stdout.trim(), VERSION);

    let output = '';
    // Its own process group: npx runs memsvc as a child, and the signal must reach memsvc.
    service = spawn('npx', ['memsvc', 'start'], { cwd: app, env, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
    service.stdout!.on('data', (chunk) => { output += chunk; });
    service.stderr!.on('data', (chunk) => { output += chunk; });
    const url = `http://127.0.0.1:${env.MEMSVC_PORT}`;
    await waitFor(async () => (await fetch(`${url}/health`).catch(() => null))?.status ?? 0, { what: 'the packed memsvc to answer /health with 200', until: (status) => status === 200, timeoutMs: 120_000 });

    const dataDir = join(work, 'xdg-data', 'memsvc');
    const key = readFileSync(join(dataDir, 'api_key'), 'utf8').trim();
    assert.ok(existsSync(join(dataDir, 'memsvc.db')));
    assert.ok(!existsSync(join(app, 'data')), 'nothing is written to the working directory');
    for (const line of [`memsvc ${VERSION}`, `${url}/api/v1`, `${url}/docs`, `${url}/mcp`, `Data     ${dataDir}`, 'Storage  sqlite', key]) {
      assert.ok(output.includes(line), `the banner shows ${line}:\n${output}`);
    }
    assert.equal((await fetch(`${url}/`)).status, 200, 'the web UI ships in the package');
    const exited = new Promise((resolve) => service!.once('exit', resolve));
    process.kill(-service.pid!, 'SIGTERM');
    await exited;
    // memsvc itself released the port: it stopped, not just npx.
    await waitFor(async () => (await fetch(`${url}/health`).then(() => 'up', () => 'down')), { what: 'memsvc to release its port', until: (state) => state === 'down', timeoutMs: 30_000 });
    assert.ok(statSync(join(dataDir, 'memsvc.db')).size > 0);
  });

  test("the README's stdio command (npx -y memsvc mcp) from the install dir serves tools with no service running", async () => {
    const transport = new StdioClientTransport({
      command: 'npx', args: ['-y', 'memsvc', 'mcp'], cwd: app, env: env as Record<string, string>, stderr: 'pipe',
    });
    const client = new Client({ name: 'memsvc-pack-test', version: '1.0.0' });
    try {
      await client.connect(transport);
      const { tools } = await client.listTools();
      assert.ok(tools.some((tool) => tool.name === 'memory_assemble_context'));
      const stored = await client.callTool({ name: 'memory_store', arguments: {
        label: 'packed', messages: [{ role: 'user', content: 'the installed package remembers this' }],
      } });
      assert.equal(stored.isError, undefined, JSON.stringify(stored.content));
    } finally {
      await client.close();
    }
  });
});
