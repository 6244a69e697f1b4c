import type { Config } from './config.schema.js';

/** The configured storage driver (storage.driver), "sqlite" when the configuration has none. */
export function storageDriverOf(config: Config): string {
  return (config as { storage?: { driver?: string } }).storage?.driver ?? 'sqlite';
}
