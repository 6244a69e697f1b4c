import type { Config } from './config.schema.js';
import type { StorageDriver } from '../ports/storage.js';

/** The configured storage driver (storage.driver). */
export const storageDriverOf = (config: Config): StorageDriver => config.storage.driver;
