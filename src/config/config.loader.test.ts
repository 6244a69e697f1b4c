import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import envPaths from 'env-paths';
import { tmpdir } from 'node:os';
import { isAbsolute, join, resolve } from 'node:path';
import { ConfigError, loadConfig } from './config.loader.js';
import { resolveConfigFile } from './platform-paths.js';

describe('loadConfig', () => {
  let dir: string;
  const yamlFile = (name: string, text: string) => writeFile(join(dir, name), text).then(() => join(dir, name));
  before(async () => { dir = await mkdtemp(join(tmpdir(), 'memsvc-config-')); });
  after(() => rm(dir, { recursive: true, force: true }));

  it('without a file or environment, every default of the spec applies', () => {
    const config = loadConfig({ file: join('/nonexistent', 'memsvc.yaml'), env: {} });
    assert.equal(config.server.port, 8080);
    assert.equal(config.server.api_key, '');
    assert.equal(config.bridge.port, 5001);
    assert.equal(config.rate_limit.requests_per_second, 100);
    assert.equal(config.rate_limit.burst_size, 200);
    assert.equal(config.limits.max_message_chars, 100_000);
    assert.equal(config.limits.max_messages_per_conversation, 10_000);
    assert.equal(config.limits.max_page_size, 1000);
    assert.equal(config.sessions.idle_gap_minutes, 30);
  });

  it('a fraction for a whole-number setting is refused, from the environment or the file, not rounded down', async () => {
    assert.throws(() => loadConfig({ file: '/nonexistent.yaml', env: { MEMSVC_SEARCH_INDEX_CONNECTIVITY: '16.5' } }), /search\.index_connectivity: must be integer/);
    const file = await yamlFile('fraction.yaml', 'rate_limit:\n  burst_size: 2.5\n');
    assert.throws(() => loadConfig({ file, env: {} }), /rate_limit\.burst_size: must be integer/);
    // Numbers that convert as written still do.
    const config = loadConfig({ file: '/nonexistent.yaml', env: {
      MEMSVC_PORT: '08081', MEMSVC_SEARCH_RERANK_OVERSAMPLE: '1.5',
    } });
    assert.equal(config.server.port, 8081);
    assert.equal(config.search.rerank_oversample, 1.5, 'a setting that is not a whole number takes a fraction');
    assert.equal(loadConfig({ file: '/nonexistent.yaml', env: {} }).search.rerank_oversample, 1, 'by default 1');
  });

  it('without data_dir, data goes to the platform data dir, or to ./data when an earlier version left a store there', async () => {
    const fresh = await mkdtemp(join(dir, 'fresh-'));
    const platformData = loadConfig({ file: '/nonexistent.yaml', env: {}, cwd: fresh }).server.data_dir;
    assert.equal(platformData, envPaths('memsvc', { suffix: '' }).data);
    assert.notEqual(platformData, join(fresh, 'data'));

    const upgraded = await mkdtemp(join(dir, 'upgraded-'));
    await mkdir(join(upgraded, 'data'));
    await writeFile(join(upgraded, 'data', 'memsvc.db'), '');
    assert.equal(loadConfig({ file: '/nonexistent.yaml', env: {}, cwd: upgraded }).server.data_dir, join(upgraded, 'data'));
    // A configured data_dir wins, relative to the working directory.
    assert.equal(loadConfig({ file: '/nonexistent.yaml', env: { MEMSVC_DATA_DIR: 'elsewhere' }, cwd: upgraded }).server.data_dir,
      join(upgraded, 'elsewhere'));
  });

  it('reads ./memsvc.yaml when the working directory has one, else the platform config file', async () => {
    const project = await mkdtemp(join(dir, 'project-'));
    assert.equal(resolveConfigFile({}, project), join(envPaths('memsvc', { suffix: '' }).config, 'memsvc.yaml'));
    await writeFile(join(project, 'memsvc.yaml'), 'server:\n  port: 7171\n');
    assert.equal(resolveConfigFile({}, project), join(project, 'memsvc.yaml'));
    assert.equal(loadConfig({ env: {}, cwd: project }).server.port, 7171);
    assert.equal(resolveConfigFile({ MEMSVC_CONFIG: 'other.yaml' }, project), join(project, 'other.yaml'));
  });

  it('reads the YAML file and keeps defaults for what it leaves out', async () => {
    const file = await yamlFile('basic.yaml', [
      'server:',
      '  port: 9090',
      '  api_key: from-file',
      'rate_limit:',
      '  burst_size: 50',
      'limits:',
      '  max_label_chars: 80',
    ].join('\n'));
    const config = loadConfig({ file, env: {} });
    assert.equal(config.server.port, 9090);
    assert.equal(config.server.api_key, 'from-file');
    assert.equal(config.server.host, '127.0.0.1');
    assert.equal(config.rate_limit.burst_size, 50);
    assert.equal(config.rate_limit.requests_per_second, 100);
    assert.equal(config.limits.max_label_chars, 80);
  });

  it('takes the file from MEMSVC_CONFIG when none is given', async () => {
    const file = await yamlFile('via-env.yaml', 'server:\n  port: 7070\n');
    assert.equal(loadConfig({ env: { MEMSVC_CONFIG: file } }).server.port, 7070);
  });

  it('an empty file is all defaults', async () => {
    const file = await yamlFile('empty.yaml', '');
    assert.equal(loadConfig({ file, env: {} }).server.port, 8080);
  });

  it('environment variables MEMSVC_<SECTION>_<KEY> override the file, converted to their types', async () => {
    const file = await yamlFile('env.yaml', 'server:\n  port: 9090\nrate_limit:\n  enabled: true\n');
    const config = loadConfig({
      file,
      env: {
        MEMSVC_SERVER_PORT: '9191',
        MEMSVC_RATE_LIMIT_ENABLED: 'false',
        MEMSVC_RATE_LIMIT_REQUESTS_PER_SECOND: '2.5',
        MEMSVC_BRIDGE_OLLAMA_URL: 'http://gpu:11434',
        MEMSVC_BRIDGE_EMBEDDINGS_PROVIDER: 'ollama',
        UNRELATED: 'ignored',
      },
    });
    assert.equal(config.server.port, 9191);
    assert.equal(config.rate_limit.enabled, false);
    assert.equal(config.rate_limit.requests_per_second, 2.5);
    assert.equal(config.bridge.ollama.url, 'http://gpu:11434');
    assert.equal(config.bridge.embeddings.provider, 'ollama');
  });

  it('understands the short aliases', () => {
    const config = loadConfig({
      file: '/nonexistent.yaml',
      env: {
        MEMSVC_PORT: '8181',
        MEMSVC_API_KEY: 'alias-key',
        MEMSVC_DATA_DIR: '/tmp/memsvc-alias',
        MEMSVC_BRIDGE_PORT: '5151',
        MEMSVC_BRIDGE_URL: 'http://bridge:5151',
      },
    });
    assert.equal(config.server.port, 8181);
    assert.equal(config.server.api_key, 'alias-key');
    assert.equal(config.server.data_dir, '/tmp/memsvc-alias');
    assert.equal(config.bridge.port, 5151);
    assert.equal(config.bridge.url, 'http://bridge:5151');
  });

  it('the long form wins over its alias', () => {
    const config = loadConfig({ file: '/nonexistent.yaml', env: { MEMSVC_PORT: '1111', MEMSVC_SERVER_PORT: '2222' } });
    assert.equal(config.server.port, 2222);
  });

  it('overrides apply last, over file and environment', async () => {
    const file = await yamlFile('over.yaml', 'server:\n  port: 9090\n');
    const config = loadConfig({ file, env: { MEMSVC_SERVER_PORT: '9191' }, overrides: { server: { port: 0 }, limits: { max_page_size: 7 } } });
    assert.equal(config.server.port, 0);
    assert.equal(config.limits.max_page_size, 7);
  });

  it('resolves data_dir to an absolute path and freezes the result', () => {
    const config = loadConfig({ file: '/nonexistent.yaml', env: { MEMSVC_DATA_DIR: 'relative/dir' } });
    assert.ok(isAbsolute(config.server.data_dir));
    assert.equal(config.server.data_dir, resolve('relative/dir'));
    assert.ok(Object.isFrozen(config) && Object.isFrozen(config.server));
    assert.throws(() => { (config.server as { port: number }).port = 1; }, TypeError);
  });

  it('drops keys it does not know', async () => {
    const file = await yamlFile('unknown.yaml', 'server:\n  port: 9090\n  colour: red\nnonsense: 1\n');
    const config = loadConfig({ file, env: {} }) as unknown as Record<string, Record<string, unknown>>;
    assert.equal(config.nonsense, undefined);
    assert.equal(config.server!.colour, undefined);
  });

  const rejects = (options: Parameters<typeof loadConfig>[0], message: RegExp) =>
    assert.throws(() => loadConfig(options), (error: unknown) => {
      assert.ok(error instanceof ConfigError, `expected ConfigError, got ${String(error)}`);
      assert.match(error.message, message);
      return true;
    });

  it('rejects invalid values with a ConfigError naming the setting', async () => {
    rejects({ file: '/nonexistent.yaml', env: { MEMSVC_PORT: 'eighty' } }, /server\.port/);
    rejects({ file: '/nonexistent.yaml', env: { MEMSVC_SERVER_PORT: '70000' } }, /server\.port/);
    rejects({ file: '/nonexistent.yaml', env: { MEMSVC_RATE_LIMIT_REQUESTS_PER_SECOND: '0' } }, /rate_limit\.requests_per_second/);
    rejects({ file: '/nonexistent.yaml', env: { MEMSVC_RATE_LIMIT_ENABLED: 'perhaps' } }, /rate_limit\.enabled/);
    rejects({ file: '/nonexistent.yaml', env: { MEMSVC_BRIDGE_EMBEDDINGS_PROVIDER: 'magic' } }, /bridge\.embeddings\.provider/);
    rejects({ file: '/nonexistent.yaml', env: { MEMSVC_SEARCH_QUERY_EMBEDDING: 'sometimes' } }, /search\.query_embedding/);
    rejects({ file: await yamlFile('bad-limit.yaml', 'limits:\n  max_page_size: 0\n'), env: {} }, /limits\.max_page_size/);
    rejects({ file: await yamlFile('bad-type.yaml', 'server:\n  body_limit_bytes: lots\n'), env: {} }, /server\.body_limit_bytes/);
    rejects({ file: '/nonexistent.yaml', env: { MEMSVC_STORAGE_DRIVER: 'mysql' } }, /storage\.driver/);
    rejects({ file: '/nonexistent.yaml', env: { MEMSVC_STORAGE_DRIVER: 'postgres' } }, /storage\.url \(MEMSVC_STORAGE_URL\) is required/);
    rejects({ file: '/nonexistent.yaml', env: { MEMSVC_RATE_LIMIT_STORE: 'memcached' } }, /rate_limit\.store/);
    // The limits the settings added with the index, search signals, recovery probe and health cache carry.
    rejects({ file: '/nonexistent.yaml', env: { MEMSVC_SEARCH_INDEX_CONNECTIVITY: '1' } }, /search\.index_connectivity/);
    rejects({ file: '/nonexistent.yaml', env: { MEMSVC_SEARCH_INDEX_CONNECTIVITY: '257' } }, /search\.index_connectivity/);
    rejects({ file: '/nonexistent.yaml', env: { MEMSVC_SEARCH_INDEX_EXPANSION_ADD: '0' } }, /search\.index_expansion_add/);
    rejects({ file: '/nonexistent.yaml', env: { MEMSVC_SEARCH_INDEX_EXPANSION_SEARCH: '5000' } }, /search\.index_expansion_search/);
    rejects({ file: '/nonexistent.yaml', env: { MEMSVC_SEARCH_TIME_WEIGHT: '-1' } }, /search\.time_weight/);
    rejects({ file: '/nonexistent.yaml', env: { MEMSVC_SEARCH_RERANK_OVERSAMPLE: '0.5' } }, /search\.rerank_oversample/);
    rejects({ file: '/nonexistent.yaml', env: { MEMSVC_SEARCH_RERANK_OVERSAMPLE: '9' } }, /search\.rerank_oversample/);
    rejects({ file: '/nonexistent.yaml', env: { MEMSVC_SEARCH_RERANK_OVERSAMPLE: 'twice' } }, /search\.rerank_oversample/);
    rejects({ file: '/nonexistent.yaml', env: { MEMSVC_SEARCH_SCOPED_STATISTICS: 'sometimes' } }, /search\.scoped_statistics/);
    rejects({ file: '/nonexistent.yaml', env: { MEMSVC_EMBEDDING_WORKER_BRIDGE_PROBE_MAX_MS: '5' } }, /embedding_worker\.bridge_probe_max_ms/);
    rejects({ file: '/nonexistent.yaml', env: { MEMSVC_SERVER_HEALTH_CACHE_MS: '-1' } }, /server\.health_cache_ms/);
    rejects({ file: '/nonexistent.yaml', env: { MEMSVC_ADMISSION_MAX_EVENT_LOOP_DELAY_MS: '-5' } }, /admission\.max_event_loop_delay_ms/);
    rejects({ file: '/nonexistent.yaml', env: { MEMSVC_ADMISSION_SHED_ABOVE_CONNECTIONS: '-1' } }, /admission\.shed_above_connections/);
    rejects({ file: '/nonexistent.yaml', env: { MEMSVC_SEARCH_CONTEXT_AUTHOR_PRIOR: '-0.5' } }, /search\.context_author_prior/);
    rejects({ file: '/nonexistent.yaml', env: { MEMSVC_SEARCH_CONTEXT_SESSION_WEIGHT: '11' } }, /search\.context_session_weight/);
    rejects({ file: '/nonexistent.yaml', env: { MEMSVC_STORAGE_VECTOR_INDEX: 'annoy' } }, /storage\.vector_index/);
    rejects({ file: '/nonexistent.yaml', env: { MEMSVC_STORAGE_IVFFLAT_PROBE_SHARE: '0' } }, /storage\.ivfflat_probe_share/);
    rejects({ file: '/nonexistent.yaml', env: { MEMSVC_STORAGE_IVFFLAT_PROBE_SHARE: '1.5' } }, /storage\.ivfflat_probe_share/);
    // Positive control: with its url the postgres driver is a valid choice, and its index settings come from the environment.
    rejects({ file: '/nonexistent.yaml', env: { MEMSVC_STORAGE_HNSW_EF_SEARCH: '5' } }, /storage\.hnsw_ef_search/);
    rejects({ file: '/nonexistent.yaml', env: { MEMSVC_STORAGE_HNSW_EF_SEARCH: '1001' } }, /storage\.hnsw_ef_search/);
    const postgres = loadConfig({ file: '/nonexistent.yaml', env: { MEMSVC_STORAGE_DRIVER: 'postgres', MEMSVC_STORAGE_URL: 'postgres://db/memsvc',
      MEMSVC_STORAGE_VECTOR_INDEX: 'ivfflat', MEMSVC_STORAGE_IVFFLAT_PROBE_SHARE: '0.05', MEMSVC_STORAGE_HNSW_EF_SEARCH: '200' } }).storage;
    assert.deepEqual([postgres.driver, postgres.vector_index, postgres.ivfflat_probe_share, postgres.hnsw_ef_search],
      ['postgres', 'ivfflat', 0.05, 200]);
    const defaults = loadConfig({ file: '/nonexistent.yaml', env: {} }).storage;
    assert.deepEqual([defaults.vector_index, defaults.hnsw_ef_search, defaults.ivfflat_probe_share], ['local', 400, 0.2]);
    rejects({ file: '/nonexistent.yaml', env: { MEMSVC_EMBEDDING_WORKER_MAX_YIELD_MS: '-1' } }, /embedding_worker\.max_yield_ms/);
    rejects({ file: '/nonexistent.yaml', env: { MEMSVC_EMBEDDING_WORKER_MAX_YIELD_MS: '60001' } }, /embedding_worker\.max_yield_ms/);
    assert.equal(loadConfig({ file: '/nonexistent.yaml', env: { MEMSVC_EMBEDDING_WORKER_MAX_YIELD_MS: '60000' } }).embedding_worker.max_yield_ms, 60_000);
    assert.equal(loadConfig({ file: '/nonexistent.yaml', env: { MEMSVC_EMBEDDING_WORKER_MAX_YIELD_MS: '0' } }).embedding_worker.max_yield_ms, 0);
    assert.equal(loadConfig({ file: '/nonexistent.yaml', env: {} }).embedding_worker.max_yield_ms, 1000);
  });

  it('rejects a file that is not YAML or not a mapping', async () => {
    rejects({ file: await yamlFile('broken.yaml', 'server: [port: 1\n'), env: {} }, /Cannot parse .*broken\.yaml/);
    rejects({ file: await yamlFile('list.yaml', '- a\n- b\n'), env: {} }, /must hold a mapping/);
    rejects({ file: await yamlFile('scalar.yaml', 'just text\n'), env: {} }, /must hold a mapping/);
  });
  it('metrics.require_key and the TLS files come from the environment; relative TLS paths are taken from the working directory', () => {
    const config = loadConfig({
      file: '/nonexistent/memsvc.yaml', cwd: '/srv/memsvc',
      env: { MEMSVC_METRICS_REQUIRE_KEY: 'true', MEMSVC_SERVER_TLS_CERT_FILE: 'tls/cert.pem', MEMSVC_SERVER_TLS_KEY_FILE: '/etc/key.pem' },
    });
    assert.equal(config.metrics.require_key, true);
    assert.deepEqual(config.server.tls, { cert_file: '/srv/memsvc/tls/cert.pem', key_file: '/etc/key.pem' });
    assert.deepEqual(config.proxy.tls, { cert_file: '', key_file: '' });
    assert.equal(loadConfig({ file: '/nonexistent/memsvc.yaml', env: {} }).metrics.require_key, false);
  });

  it('a TLS certificate without its key (or the reverse) is a configuration error naming both settings', () => {
    assert.throws(() => loadConfig({ file: '/nonexistent/memsvc.yaml', env: { MEMSVC_PROXY_TLS_KEY_FILE: '/etc/key.pem' } }),
      (error: Error) => error instanceof ConfigError && /proxy\.tls\.cert_file and proxy\.tls\.key_file go together/.test(error.message));
  });
});
