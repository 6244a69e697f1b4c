import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import envPaths from 'env-paths';

/** Where memsvc keeps things when the configuration does not say: the platform's per-user directories. */
const platform = () => envPaths('memsvc', { suffix: '' });

/** The data directory of memsvc 0.1, relative to the working directory it was started from. */
export const LEGACY_DATA_DIR = './data';
const LEGACY_MARKERS = ['memsvc.db', 'api_key'];

export const CONFIG_FILE_NAME = 'memsvc.yaml';

/**
 * The config file to read: MEMSVC_CONFIG, else ./memsvc.yaml when the working directory has one
 * (a checkout, or a project that keeps its own), else the platform one (~/.config/memsvc/memsvc.yaml).
 * A missing file means defaults.
 */
export function resolveConfigFile(env: NodeJS.ProcessEnv, cwd = process.cwd()): string {
  if (env.MEMSVC_CONFIG) return resolve(cwd, env.MEMSVC_CONFIG);
  const local = resolve(cwd, CONFIG_FILE_NAME);
  return existsSync(local) ? local : join(platform().config, CONFIG_FILE_NAME);
}

/**
 * The configured data_dir; empty means ./data when an earlier version left a store there,
 * else the platform data directory (~/.local/share/memsvc on Linux).
 */
export function resolveDataDir(configured: string, cwd = process.cwd()): string {
  if (configured !== '') return resolve(cwd, configured);
  const legacy = resolve(cwd, LEGACY_DATA_DIR);
  if (LEGACY_MARKERS.some((name) => existsSync(join(legacy, name)))) return legacy;
  return platform().data;
}
