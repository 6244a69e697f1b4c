import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { request as httpsRequest } from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { unusedPort } from '../helpers/fake-bridge.js';
import { removeDir } from '../helpers/service-harness.js';
import { waitFor } from '../helpers/wait-for.js';
import { cliEnv } from '../cli/cli-runner.js';

const MAIN = fileURLToPath(new URL('../../src/main.ts', import.meta.url));
const KEY = 'tls-test-key-0123456789abcdef0123456789abcdef';

interface Started { child: ChildProcess; output: () => string; exited: Promise<number | null> }

/** The real service process (`npm start`) with these settings; its bridge is not started (none is needed here). */
function startService(dataDir: string, settings: Record<string, string>): Started {
  let output = '';
  const child = spawn(process.execPath, ['--import', 'tsx', MAIN], {
    env: cliEnv({
      MEMSVC_DATA_DIR: dataDir, MEMSVC_API_KEY: KEY, MEMSVC_BRIDGE_START: 'false', MEMSVC_SERVER_LOG_LEVEL: 'warn', ...settings,
    }),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout!.on('data', (chunk) => { output += chunk; });
  child.stderr!.on('data', (chunk) => { output += chunk; });
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return { child, output: () => output, exited };
}

async function stopService(started: Started): Promise<void> {
  if (started.child.exitCode !== null) return;
  started.child.kill('SIGTERM');
  await started.exited;
}

/** One HTTPS GET trusting only the given certificate. */
function httpsGet(url: string, ca: Buffer, headers: Record<string, string> = {}): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = httpsRequest(url, { ca, headers }, (response) => {
      let body = '';
      response.on('data', (chunk) => { body += chunk; });
      response.on('end', () => resolve({ status: response.statusCode ?? 0, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

/** Pino's JSON lines at warn level that speak of clear text. */
const plaintextWarnings = (output: string) => output.split('\n')
  .filter((line) => line.startsWith('{'))
  .map((line) => JSON.parse(line) as { level: number; msg: string; listeners?: Array<{ name: string }> })
  .filter((entry) => entry.level === 40 && /without TLS/.test(entry.msg));

describe('TLS for the API and the proxy', () => {
  let dir: string;
  let cert: Buffer;
  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'memsvc-tls-'));
    // A self-signed certificate made for this run, valid for 127.0.0.1.
    execFileSync('openssl', ['req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes',
      '-keyout', join(dir, 'key.pem'), '-out', join(dir, 'cert.pem'), '-days', '1', '-subj', '/CN=memsvc-test',
      '-addext', 'subjectAltName=IP:127.0.0.1,DNS:localhost'], { stdio: 'ignore' });
    cert = readFileSync(join(dir, 'cert.pem'));
  });
  after(() => removeDir(dir));

  test('with server.tls both the API and the proxy (which reuses it) speak HTTPS; no clear-text warning', async () => {
    const [port, proxyPort] = [await unusedPort(), await unusedPort()];
    const service = startService(join(dir, 'data-tls'), {
      MEMSVC_PORT: String(port), MEMSVC_SERVER_HOST: '0.0.0.0',
      MEMSVC_SERVER_TLS_CERT_FILE: join(dir, 'cert.pem'), MEMSVC_SERVER_TLS_KEY_FILE: join(dir, 'key.pem'),
      MEMSVC_PROXY_ENABLED: 'true', MEMSVC_PROXY_HOST: '0.0.0.0', MEMSVC_PROXY_PORT: String(proxyPort),
      MEMSVC_BRIDGE_URL: `http://127.0.0.1:${await unusedPort()}`,
    });
    try {
      await waitFor(() => httpsGet(`https://127.0.0.1:${proxyPort}/v1/models`, cert), { what: 'the proxy answering over HTTPS', timeoutMs: 60_000 });
      const count = await httpsGet(`https://127.0.0.1:${port}/api/v1/conversations/count`, cert, { authorization: `Bearer ${KEY}` });
      assert.equal(count.status, 200, count.body);
      assert.deepEqual(JSON.parse(count.body), { count: 0 });
      const health = await httpsGet(`https://127.0.0.1:${port}/health`, cert);
      assert.ok([200, 503].includes(health.status), 'the public health report over HTTPS');
      assert.equal(JSON.parse(health.body).checks.database.status, 'ok');
      const proxyAnswer = await httpsGet(`https://127.0.0.1:${proxyPort}/v1/models`, cert);
      assert.equal(proxyAnswer.status, 401, 'the proxy answers over HTTPS (and wants the key)');
      // Clear HTTP to the HTTPS port gets no answer.
      await assert.rejects(fetch(`http://127.0.0.1:${port}/health`, { signal: AbortSignal.timeout(5000) }));
      assert.deepEqual(plaintextWarnings(service.output()), []);
    } finally {
      await stopService(service);
    }
  });

  test('a listener beyond loopback without TLS gets one warning line at start; loopback ones do not', async () => {
    const [port, proxyPort] = [await unusedPort(), await unusedPort()];
    const service = startService(join(dir, 'data-plain'), {
      MEMSVC_PORT: String(port), MEMSVC_SERVER_HOST: '0.0.0.0',
      MEMSVC_PROXY_ENABLED: 'true', MEMSVC_PROXY_HOST: '127.0.0.1', MEMSVC_PROXY_PORT: String(proxyPort),
      MEMSVC_BRIDGE_URL: `http://127.0.0.1:${await unusedPort()}`,
    });
    try {
      await waitFor(() => plaintextWarnings(service.output()), { what: 'the plain-text listener warning', until: (warnings) => warnings.length > 0, timeoutMs: 60_000 });
      const warnings = plaintextWarnings(service.output());
      assert.equal(warnings.length, 1);
      assert.deepEqual(warnings[0]!.listeners!.map((listener) => listener.name), ['api']);
      assert.match(warnings[0]!.msg, new RegExp(`api on 0\\.0\\.0\\.0:${port}`));
    } finally {
      await stopService(service);
    }
  });

  test('a certificate file that cannot be read stops the start with a line naming the setting', async () => {
    const service = startService(join(dir, 'data-missing'), {
      MEMSVC_PORT: String(await unusedPort()),
      MEMSVC_SERVER_TLS_CERT_FILE: join(dir, 'nowhere.pem'), MEMSVC_SERVER_TLS_KEY_FILE: join(dir, 'key.pem'),
    });
    assert.equal(await service.exited, 1);
    assert.match(service.output(), /server\.tls\.cert_file: cannot read .*nowhere\.pem: ENOENT/);
  });

  test('a key that does not belong to the certificate is refused at start too', async () => {
    execFileSync('openssl', ['genpkey', '-algorithm', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-out', join(dir, 'other.pem')]);
    const service = startService(join(dir, 'data-mismatch'), {
      MEMSVC_PORT: String(await unusedPort()),
      MEMSVC_SERVER_TLS_CERT_FILE: join(dir, 'cert.pem'), MEMSVC_SERVER_TLS_KEY_FILE: join(dir, 'other.pem'),
    });
    assert.equal(await service.exited, 1);
    assert.match(service.output(), /server\.tls: .* are not a usable certificate and key/);
  });
});
