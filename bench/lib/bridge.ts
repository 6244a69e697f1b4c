import { spawn } from 'node:child_process';
import { mkdirSync, rmSync, symlinkSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createServer } from 'node:net';

const BRIDGE_MAIN = fileURLToPath(new URL('../../src/bridge/bridge.main.ts', import.meta.url));
export const SHARED_MODEL_CACHE = fileURLToPath(new URL('../../.cache/models', import.meta.url));

export interface BenchBridge {
  url: string;
  apiKey: string;
  /** POST /embed with base64 vectors, as the controller asks. */
  embed(texts: readonly string[]): Promise<Float32Array[]>;
  close(): Promise<void>;
}

/**
 * The real LLM bridge (builtin offline engine) in its own process, as
 * `npm start` runs it, on an ephemeral 127.0.0.1 port. Its word-vector cache
 * is the repository's shared one (.cache/models), so it is built once per machine.
 */
export async function startBenchBridge(workDir: string, apiKey: string, fixedPort?: number): Promise<BenchBridge> {
  mkdirSync(workDir, { recursive: true });
  mkdirSync(SHARED_MODEL_CACHE, { recursive: true });
  // A store seeded from another checkout (a removed worktree) keeps a link to its cache: point it at this one's.
  const cache = join(workDir, 'cache');
  if (!existsSync(cache)) {
    rmSync(cache, { force: true });
    symlinkSync(SHARED_MODEL_CACHE, cache);
  }
  const port = fixedPort ?? await freePort();
  const child = spawn(process.execPath, ['--import', 'tsx', BRIDGE_MAIN], {
    env: {
      ...process.env, MEMSVC_CONFIG: '/nonexistent', MEMSVC_DATA_DIR: workDir, MEMSVC_BRIDGE_PORT: String(port),
      MEMSVC_BRIDGE_HOST: '127.0.0.1', MEMSVC_API_KEY: apiKey, MEMSVC_SERVER_LOG_LEVEL: 'warn',
    },
    stdio: ['ignore', 'inherit', 'inherit'],
  });
  const url = `http://127.0.0.1:${port}`;
  const headers = { 'content-type': 'application/json', authorization: `Bearer ${apiKey}` };
  const deadline = Date.now() + 120_000;
  for (;;) {
    const ok = await fetch(`${url}/health`).then((r) => r.ok, () => false);
    if (ok) break;
    if (child.exitCode !== null) throw new Error(`bridge exited with ${child.exitCode}`);
    if (Date.now() > deadline) throw new Error('bridge did not become healthy in 120 s');
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  return {
    url, apiKey,
    async embed(texts) {
      const post = () => fetch(`${url}/embed`, { method: 'POST', headers, body: JSON.stringify({ texts, encoding_format: 'base64' }) });
      // Once more on a connection error: after this process's event loop was held (loading a million vectors for
      // the exact baselines), fetch can reuse a kept-alive socket the bridge has since closed ("fetch failed").
      const response = await post().catch((error: unknown) => {
        if (error instanceof TypeError) return post();
        throw error;
      });
      if (!response.ok) throw new Error(`bridge /embed answered ${response.status}`);
      const body = (await response.json()) as { embeddings_base64: string[] };
      return body.embeddings_base64.map((encoded) => {
        const bytes = Buffer.from(encoded, 'base64');
        const vector = new Float32Array(bytes.byteLength / 4);
        new Uint8Array(vector.buffer).set(bytes);
        return vector;
      });
    },
    async close() {
      if (child.exitCode !== null) return;
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await exited;
    },
  };
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}
