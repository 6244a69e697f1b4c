import type { Config } from './config/config.schema.js';
import type { ResolvedApiKey } from './config/api-key.js';
import { proxyUsesTls } from './config/tls-files.js';

export interface BannerFacts {
  version: string;
  /** Where the API answers, e.g. http://127.0.0.1:8080. */
  url: string;
  config: Config;
  apiKey: ResolvedApiKey;
}

/** What a user needs after `memsvc start`: where everything is, and the key on the first start. */
export function startupBanner({ version, url, config, apiKey }: BannerFacts): string {
  const proxy = config.proxy.enabled
    ? `${proxyUsesTls(config) ? 'https' : 'http'}://${config.proxy.host}:${config.proxy.port}/v1 -> ${config.proxy.upstream_url}`
    : 'off (proxy.enabled: true turns it on)';
  const key = apiKey.generated
    ? `generated on this first start, kept in ${apiKey.file} (mode 0600):\n\n    ${apiKey.key}\n`
    : apiKey.file ? `in ${apiKey.file} (memsvc key show)` : 'from the configuration (server.api_key)';
  return [
    '',
    `  memsvc ${version}`,
    `  API      ${url}/api/v1`,
    `  UI       ${url}/`,
    `  Docs     ${url}/docs`,
    `  MCP      ${url}/mcp   (stdio: npx -y memsvc mcp)`,
    `  Proxy    ${proxy}`,
    `  Data     ${config.server.data_dir}`,
    `  Storage  ${config.storage.driver}`,
    `  API key  ${key}`,
    '',
  ].join('\n') + '\n';
}
