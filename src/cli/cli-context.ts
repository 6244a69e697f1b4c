import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { loadConfig } from '../config/config.loader.js';
import type { Config } from '../config/config.schema.js';
import { API_KEY_FILE } from '../config/api-key.js';
import { createMemsvcClient, type MemsvcClient } from '../client/memsvc-client.js';
import { CliError } from './cli-errors.js';

/** What every command shares: the configuration and how to reach the running service. */
export interface CliContext {
  config: Config;
  /** Where the running service answers (mcp.server_url, else server.host:server.port). */
  serviceUrl: string;
  apiKeyFile: string;
  /** The configured key, else the one in <data_dir>/api_key; null when there is none yet. */
  findApiKey(): string | null;
  /** A client of the running service; fails with a clear line when there is no key. */
  client(): MemsvcClient;
}

export function serviceUrlOf(config: Config): string {
  if (config.mcp.server_url !== '') return config.mcp.server_url.replace(/\/+$/, '');
  const host = config.server.host === '0.0.0.0' || config.server.host === '::' ? '127.0.0.1' : config.server.host;
  const scheme = config.server.tls.cert_file !== '' ? 'https' : 'http';
  return `${scheme}://${host.includes(':') ? `[${host}]` : host}:${config.server.port}`;
}

export function loadCliContext(): CliContext {
  const config = loadConfig();
  const serviceUrl = serviceUrlOf(config);
  const apiKeyFile = join(config.server.data_dir, API_KEY_FILE);
  const findApiKey = (): string | null => {
    if (config.server.api_key !== '') return config.server.api_key;
    try {
      return readFileSync(apiKeyFile, 'utf8').trim() || null;
    } catch {
      return null;
    }
  };
  return {
    config, serviceUrl, apiKeyFile, findApiKey,
    client() {
      const apiKey = findApiKey();
      if (apiKey === null) {
        throw new CliError(`no API key: ${apiKeyFile} does not exist yet; run "memsvc start" once, or set MEMSVC_API_KEY`);
      }
      return createMemsvcClient({ baseUrl: serviceUrl, apiKey });
    },
  };
}
