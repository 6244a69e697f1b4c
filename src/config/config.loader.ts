import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { Value } from 'typebox/value';
import type { TSchema } from 'typebox';
import { parse as parseYaml } from 'yaml';
import { ConfigSchema, type Config } from './config.schema.js';
import { resolveConfigFile, resolveDataDir } from './platform-paths.js';

/** Short environment names that operators and scripts rely on. */
const ENV_ALIASES: Readonly<Record<string, string>> = {
  MEMSVC_PORT: 'server.port',
  MEMSVC_API_KEY: 'server.api_key',
  MEMSVC_DATA_DIR: 'server.data_dir',
  MEMSVC_BRIDGE_PORT: 'bridge.port',
  MEMSVC_BRIDGE_URL: 'bridge.url',
};

export class ConfigError extends Error {}

export interface LoadConfigOptions {
  /** Path of the YAML file; default MEMSVC_CONFIG, ./memsvc.yaml, or the platform one (missing file = defaults). */
  file?: string;
  env?: NodeJS.ProcessEnv;
  /** Relative paths (config file, data_dir) and the earlier ./data are looked up here; default process.cwd(). */
  cwd?: string;
  /** Applied last, for tests and embedding memsvc in another program. */
  overrides?: DeepPartial<Config>;
}

export type DeepPartial<T> = { [K in keyof T]?: T[K] extends object ? DeepPartial<T[K]> : T[K] };

/** Reads file, environment and overrides once into a validated, frozen Config. */
export function loadConfig(options: LoadConfigOptions = {}): Config {
  const env = options.env ?? process.env;
  const cwd = options.cwd ?? process.cwd();
  const file = options.file ?? resolveConfigFile(env, cwd);
  const raw: Record<string, unknown> = readYamlFile(file);

  for (const [path, value] of envEntries(env)) setPath(raw, path, value);
  if (options.overrides) deepMerge(raw, options.overrides as Record<string, unknown>);

  const given = structuredClone(raw);
  const converted = Value.Convert(ConfigSchema, Value.Default(ConfigSchema, raw));
  const errors = [
    ...numbersChanged(given, converted).map((path) => ({ instancePath: `/${path.replaceAll('.', '/')}`, message: 'must be integer' })),
    ...Value.Errors(ConfigSchema, converted),
  ];
  if (errors.length > 0) {
    const detail = errors.slice(0, 5).map((e) => `${e.instancePath.slice(1).replaceAll('/', '.')}: ${e.message}`);
    throw new ConfigError(`Invalid configuration: ${detail.join('; ')}`);
  }
  const config = Value.Clean(ConfigSchema, converted) as Config;
  if (config.storage.driver === 'postgres' && config.storage.url === '') {
    throw new ConfigError('Invalid configuration: storage.url (MEMSVC_STORAGE_URL) is required when storage.driver is postgres');
  }
  for (const [name, tls] of [['server.tls', config.server.tls], ['proxy.tls', config.proxy.tls]] as const) {
    if ((tls.cert_file === '') !== (tls.key_file === '')) {
      throw new ConfigError(`Invalid configuration: ${name}.cert_file and ${name}.key_file go together: set both or neither`);
    }
    if (tls.cert_file !== '') {
      tls.cert_file = resolve(cwd, tls.cert_file);
      tls.key_file = resolve(cwd, tls.key_file);
    }
  }
  config.server.data_dir = resolveDataDir(config.server.data_dir, cwd);
  return deepFreeze(config);
}

/**
 * Paths whose number the conversion changed: Value.Convert turns 1.5 (or "1.5" from the environment) into the 1 an
 * integer setting takes, where an operator should hear that the value is wrong.
 */
function numbersChanged(given: unknown, converted: unknown, path: readonly string[] = []): string[] {
  if (given !== null && typeof given === 'object' && !Array.isArray(given)) {
    const inner = converted !== null && typeof converted === 'object' ? converted as Record<string, unknown> : {};
    return Object.entries(given).flatMap(([key, value]) => numbersChanged(value, inner[key], [...path, key]));
  }
  const number = typeof given === 'string' && given.trim() !== '' ? Number(given) : given;
  return typeof converted === 'number' && typeof number === 'number' && !Number.isNaN(number) && number !== converted ? [path.join('.')] : [];
}

function readYamlFile(file: string): Record<string, unknown> {
  if (!existsSync(file)) return {};
  let parsed: unknown;
  try {
    parsed = parseYaml(readFileSync(file, 'utf8'));
  } catch (err) {
    throw new ConfigError(`Cannot parse ${file}: ${(err as Error).message}`);
  }
  if (parsed == null) return {};
  if (typeof parsed !== 'object' || Array.isArray(parsed)) throw new ConfigError(`${file} must hold a mapping`);
  return parsed as Record<string, unknown>;
}

/** Every (dotted path, value) the environment sets, aliases first so the long form wins. */
function envEntries(env: NodeJS.ProcessEnv): Array<[string, string]> {
  const entries: Array<[string, string]> = [];
  for (const [name, path] of Object.entries(ENV_ALIASES)) {
    const value = env[name];
    if (value !== undefined) entries.push([path, value]);
  }
  for (const path of leafPaths(ConfigSchema)) {
    const value = env[`MEMSVC_${path.replaceAll('.', '_').toUpperCase()}`];
    if (value !== undefined) entries.push([path, value]);
  }
  return entries;
}

function leafPaths(schema: TSchema, prefix = ''): string[] {
  const props = (schema as { properties?: Record<string, TSchema> }).properties;
  if (!props) return [prefix];
  return Object.entries(props).flatMap(([key, child]) => leafPaths(child, prefix ? `${prefix}.${key}` : key));
}

function setPath(target: Record<string, unknown>, path: string, value: unknown): void {
  const keys = path.split('.');
  let node = target;
  for (const key of keys.slice(0, -1)) {
    const next = node[key];
    if (typeof next !== 'object' || next === null) node[key] = {};
    node = node[key] as Record<string, unknown>;
  }
  node[keys[keys.length - 1]!] = value;
}

function deepMerge(target: Record<string, unknown>, source: Record<string, unknown>): void {
  for (const [key, value] of Object.entries(source)) {
    if (value && typeof value === 'object' && !Array.isArray(value)) {
      if (typeof target[key] !== 'object' || target[key] === null) target[key] = {};
      deepMerge(target[key] as Record<string, unknown>, value as Record<string, unknown>);
    } else if (value !== undefined) {
      target[key] = value;
    }
  }
}

function deepFreeze<T>(value: T): T {
  if (value && typeof value === 'object') {
    for (const child of Object.values(value)) deepFreeze(child);
    Object.freeze(value);
  }
  return value;
}
