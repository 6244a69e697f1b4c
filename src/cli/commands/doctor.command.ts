import { accessSync, constants, existsSync, readFileSync, statSync } from 'node:fs';
import { statfs } from 'node:fs/promises';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { loadConfig } from '../../config/config.loader.js';
import type { Config } from '../../config/config.schema.js';
import { resolveConfigFile } from '../../config/platform-paths.js';
import { API_KEY_FILE } from '../../config/api-key.js';
import { DATABASE_FILE } from '../../controller.js';
import { serviceUrlOf } from '../cli-context.js';
import { formatBytes } from '../progress.js';
import { openStoreReadOnly } from '../sqlite-store-file.js';
import { proxyTls, proxyUsesTls, serverTls } from '../../config/tls-files.js';
import { isLoopback } from '../../http/exposed-listeners.js';
import { modelCacheDir } from '../../bridge/builtin/embedding/builtin-model.js';
import { UsearchVectorIndex } from '../../adapters/vector/usearch-vector.index.js';
import { VECTOR_INDEX_DIR } from '../../adapters/sqlite/sqlite-storage.js';

export type Verdict = 'ok' | 'warn' | 'fail';
export interface Finding { check: string; verdict: Verdict; detail: string; fix?: string }

const ok = (check: string, detail: string): Finding => ({ check, verdict: 'ok', detail });
const warn = (check: string, detail: string, fix?: string): Finding => ({ check, verdict: 'warn', detail, ...(fix ? { fix } : {}) });
const fail = (check: string, detail: string, fix?: string): Finding => ({ check, verdict: 'fail', detail, ...(fix ? { fix } : {}) });

interface HealthReport { status?: string; checks?: Record<string, { status: string; error?: string; [key: string]: unknown }> }

async function fetchJson(url: string, headers: Record<string, string> = {}): Promise<{ status: number; body: unknown } | null> {
  try {
    const response = await fetch(url, { headers, signal: AbortSignal.timeout(3000) });
    return { status: response.status, body: await response.json().catch(() => null) };
  } catch {
    return null;
  }
}

const portFree = (host: string, port: number) => new Promise<boolean>((resolve) => {
  const server = createServer();
  server.once('error', () => resolve(false));
  server.listen({ host, port, exclusive: true }, () => server.close(() => resolve(true)));
});

const loose = (mode: number) => (mode & 0o077) !== 0;
const octal = (mode: number) => (mode & 0o777).toString(8).padStart(4, '0');

function checkDataDir(config: Config): Finding[] {
  const dir = config.server.data_dir;
  if (!existsSync(dir)) return [ok('data dir', `${dir} (created at the first start)`)];
  const findings: Finding[] = [];
  try {
    accessSync(dir, constants.W_OK);
  } catch {
    return [fail('data dir', `${dir} is not writable by this user`, `chown it to this user, or set server.data_dir`)];
  }
  const dirMode = statSync(dir).mode;
  findings.push(loose(dirMode)
    ? warn('data dir', `${dir} is ${octal(dirMode)}: other users can read it`, `chmod 700 ${dir}`)
    : ok('data dir', `${dir} (${octal(dirMode)})`));
  for (const name of [DATABASE_FILE, API_KEY_FILE]) {
    const file = join(dir, name);
    if (existsSync(file) && loose(statSync(file).mode)) {
      findings.push(warn('data dir', `${file} is ${octal(statSync(file).mode)}`, `chmod 600 ${file}`));
    }
  }
  return findings;
}

async function checkModel(config: Config): Promise<Finding> {
  const { provider, model } = config.bridge.embeddings;
  if (provider === 'builtin') {
    const cached = existsSync(modelCacheDir(config.server.data_dir));
    return ok('bridge and model', `builtin offline embedder${cached ? '' : ' (its word vectors are prepared at the first start, ~20 s)'}`);
  }
  if (provider === 'ollama') {
    const tags = await fetchJson(`${config.bridge.ollama.url.replace(/\/+$/, '')}/api/tags`);
    if (!tags) return fail('bridge and model', `Ollama does not answer at ${config.bridge.ollama.url}`, 'start Ollama, or set bridge.ollama.url');
    const names = ((tags.body as { models?: Array<{ name: string }> })?.models ?? []).map((m) => m.name);
    if (model !== '' && !names.some((name) => name === model || name.startsWith(`${model}:`))) {
      return fail('bridge and model', `Ollama has no model ${model}`, `ollama pull ${model}`);
    }
    return ok('bridge and model', `Ollama at ${config.bridge.ollama.url}, model ${model || '(default)'}`);
  }
  if (config.bridge.openai.api_key === '') {
    return fail('bridge and model', 'bridge.embeddings.provider is openai but bridge.openai.api_key is empty', 'set MEMSVC_BRIDGE_OPENAI_API_KEY');
  }
  return ok('bridge and model', `OpenAI-compatible at ${config.bridge.openai.url}, model ${model || '(default)'}`);
}

function checkVectorIndexOffline(config: Config): Finding {
  const file = join(config.server.data_dir, DATABASE_FILE);
  if (config.storage.driver !== 'sqlite' || !existsSync(file)) return ok('vector index', 'nothing stored yet');
  const { db } = openStoreReadOnly(file);
  let vectors: number;
  try {
    vectors = db.prepare('SELECT count(*) FROM message_vectors').pluck().get() as number;
  } finally {
    db.close();
  }
  const saved = UsearchVectorIndex.savedGraph(join(config.server.data_dir, VECTOR_INDEX_DIR));
  if (!saved) {
    return vectors === 0 ? ok('vector index', 'no vectors yet')
      : warn('vector index', `no index file for ${vectors} stored vectors`, 'nothing to do: the next start rebuilds it from the store');
  }
  return saved.size === vectors
    ? ok('vector index', `${vectors} vectors, index matches the store (${saved.model})`)
    : warn('vector index', `index holds ${saved.size} vectors, the store ${vectors}`,
      'nothing to do: the index catches up at the next start (or POST /api/v1/rebuild-embeddings)');
}

async function checkDisk(config: Config): Promise<Finding> {
  let dir = config.server.data_dir;
  while (!existsSync(dir)) dir = join(dir, '..');
  const stats = await statfs(dir);
  const free = stats.bavail * stats.bsize;
  const db = join(config.server.data_dir, DATABASE_FILE);
  const used = ['', '-wal'].reduce((sum, suffix) => sum + (existsSync(`${db}${suffix}`) ? statSync(`${db}${suffix}`).size : 0), 0);
  if (free < 256 * 1024 ** 2) return fail('disk space', `${formatBytes(free)} free on ${dir}`, 'free some space: writes fail when the disk is full');
  if (free < Math.max(1024 ** 3, 2 * used)) {
    return warn('disk space', `${formatBytes(free)} free, store ${formatBytes(used)}`, 'a backup or a rebuild needs about the store\'s size again');
  }
  return ok('disk space', `${formatBytes(free)} free, store ${formatBytes(used)}`);
}

/** The certificate files read and paired as the start would; listeners others can reach in clear text. */
function checkNetwork(config: Config): Finding[] {
  const findings: Finding[] = [];
  try {
    const tls = [serverTls(config) && 'API', config.proxy.enabled && proxyTls(config) && 'proxy'].filter(Boolean);
    if (tls.length > 0) findings.push(ok('tls', `HTTPS on the ${tls.join(' and ')}`));
  } catch (error) {
    return [fail('tls', (error as Error).message, 'fix the file path or its permissions, or pair the certificate with its own key')];
  }
  const listeners = [
    { name: 'API', host: config.server.host, tls: config.server.tls.cert_file !== '' },
    ...(config.proxy.enabled ? [{ name: 'proxy', host: config.proxy.host, tls: proxyUsesTls(config) }] : []),
    ...(config.bridge.start ? [{ name: 'bridge', host: config.bridge.host, tls: false }] : []),
  ].filter((listener) => !listener.tls && !isLoopback(listener.host));
  if (listeners.length > 0) {
    findings.push(warn('network', `${listeners.map((l) => `${l.name} on ${l.host}`).join(', ')} without TLS: reachable by others in clear text`,
      'set server.tls (and proxy.tls), put a TLS reverse proxy in front, or bind to 127.0.0.1'));
  }
  return findings;
}

/** Looks at everything memsvc needs and says what to fix. */
export async function diagnose(env: NodeJS.ProcessEnv = process.env): Promise<Finding[]> {
  const configFile = resolveConfigFile(env);
  let config: Config;
  try {
    config = loadConfig();
  } catch (error) {
    return [fail('config', (error as Error).message, `fix ${configFile} or the MEMSVC_* variable it names`)];
  }
  const findings: Finding[] = [ok('config', existsSync(configFile) ? configFile : `defaults (no ${configFile})`)];
  const url = serviceUrlOf(config);
  const health = await fetchJson(`${url}/health`);
  const report = health?.body as HealthReport | null;
  if (health && report?.checks) {
    findings.push(ok('service', `memsvc is running at ${url} (health ${health.status === 200 ? 'ok' : 'degraded'})`));
  } else if (health) {
    findings.push(fail('port', `${url} answers, but not as memsvc`, 'set server.port (MEMSVC_PORT) to a free port'));
  } else {
    findings.push(await portFree(config.server.host, config.server.port)
      ? ok('port', `${config.server.host}:${config.server.port} is free`)
      : fail('port', `${config.server.host}:${config.server.port} is taken by another program`, 'set server.port (MEMSVC_PORT)'));
    if (config.bridge.start && !(await portFree(config.bridge.host, config.bridge.port))) {
      findings.push(fail('port', `bridge port ${config.bridge.host}:${config.bridge.port} is taken`, 'set bridge.port (MEMSVC_BRIDGE_PORT)'));
    }
  }
  findings.push(...checkNetwork(config));
  findings.push(...checkDataDir(config));
  const bridge = report?.checks?.llm_bridge;
  findings.push(bridge && bridge.status !== 'ok'
    ? fail('bridge and model', `the running service cannot reach its bridge: ${bridge.error ?? bridge.status}`,
      'see the service log; with bridge.start false, start the bridge at bridge.url')
    : await checkModel(config));
  const vectors = report?.checks?.vector_store;
  if (vectors) {
    findings.push(vectors.status === 'ok'
      ? ok('vector index', `${String(vectors.indexed ?? '?')} indexed, ${String(vectors.pending ?? 0)} pending, ${String(vectors.failed ?? 0)} failed${vectors.model ? ` (${String(vectors.model)})` : ''}`)
      : fail('vector index', vectors.error ?? 'failing', 'POST /api/v1/rebuild-embeddings'));
  } else {
    findings.push(checkVectorIndexOffline(config));
  }
  findings.push(await checkDisk(config));
  return findings;
}

const MARK: Record<Verdict, string> = { ok: 'ok  ', warn: 'warn', fail: 'FAIL' };

export function formatFindings(findings: Finding[]): string {
  return findings.map((f) => `${MARK[f.verdict]}  ${f.check}: ${f.detail}${f.fix ? `\n      fix: ${f.fix}` : ''}`).join('\n') + '\n';
}
