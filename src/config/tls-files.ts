import { readFileSync } from 'node:fs';
import { createSecureContext } from 'node:tls';
import type { Config } from './config.schema.js';
import { ConfigError } from './config.loader.js';

/** A listener's certificate chain and private key (PEM), as Fastify's `https` option takes them. */
export interface TlsMaterial {
  cert: Buffer;
  key: Buffer;
}

/** The controller's TLS (server.tls); null: plain HTTP. */
export const serverTls = (config: Config): TlsMaterial | null => readTls(config.server.tls, 'server.tls');

/** Whether the proxy listens with TLS (its own proxy.tls or the controller's server.tls). */
export const proxyUsesTls = (config: Config): boolean => config.proxy.tls.cert_file !== '' || config.server.tls.cert_file !== '';

/** The proxy's own TLS (proxy.tls), else the controller's (server.tls); null: plain HTTP. */
export const proxyTls = (config: Config): TlsMaterial | null =>
  config.proxy.tls.cert_file !== '' ? readTls(config.proxy.tls, 'proxy.tls') : serverTls(config);

/**
 * Reads the files once at start and checks they form a usable pair, so a
 * wrong path or a key of another certificate stops the start with a line
 * naming the setting, not a TLS error on the first connection.
 */
function readTls(settings: Config['server']['tls'], name: string): TlsMaterial | null {
  if (settings.cert_file === '') return null;
  const read = (field: 'cert_file' | 'key_file') => {
    try {
      return readFileSync(settings[field]);
    } catch (error) {
      throw new ConfigError(`${name}.${field}: cannot read ${settings[field]}: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}`);
    }
  };
  const material = { cert: read('cert_file'), key: read('key_file') };
  try {
    createSecureContext(material);
  } catch (error) {
    throw new ConfigError(`${name}: ${settings.cert_file} and ${settings.key_file} are not a usable certificate and key: ${(error as Error).message}`);
  }
  return material;
}
