import type { LoadResult } from './load.js';
import type { ServerMode } from './server.js';

/**
 * A benchmark scenario: one `bench/<name>.bench.ts` file exporting `scenario`.
 * `bench/run.ts` finds it by file name, parses the options it declares from
 * flags or environment, runs it and prints/writes its report.
 */
export interface Scenario {
  name: string;
  description: string;
  /** Flags this scenario understands (`--<name> <value>` or env `BENCH_<NAME>`). */
  options: Record<string, OptionSpec>;
  run(context: ScenarioContext): Promise<ScenarioReport>;
}

export type OptionSpec =
  | { kind: 'number'; description: string; default: number; quick?: number }
  | { kind: 'numbers'; description: string; default: readonly number[]; quick?: readonly number[] }
  | { kind: 'string'; description: string; default: string; quick?: string };

export type OptionValue = number | readonly number[] | string;

export interface ScenarioContext {
  /** `--quick`: small sizes for a smoke run (each option's `quick` value unless set explicitly). */
  quick: boolean;
  serverMode: ServerMode;
  keepData: boolean;
  /** `--data-dir <dir>`: this scenario's persistent data dir (`<dir>/<scenario>`), reused across runs. */
  dataDir?: string;
  number(name: string): number;
  numbers(name: string): readonly number[];
  string(name: string): string;
  /** Progress line on stderr (the table goes to stdout). */
  log(message: string): void;
}

export interface Measurement extends LoadResult {
  /** Groups rows in the table, e.g. "create", "get", "list". */
  group: string;
  name: string;
  /** Server CPU time during the measurement, as % of one core (the machine may have other load). */
  server_cpu_pct?: number;
  note?: string;
}

/** How data got into the store: say it, because HTTP and in-process seeding differ a lot in cost. */
export interface SeedingStep {
  method: string;
  count: number;
  wall_ms: number;
  rate_per_s: number;
  note?: string;
}

export interface ScenarioReport {
  /** Size of the data the reads ran against (conversations, messages, bytes ...). */
  dataset: Record<string, number | string>;
  seeding: SeedingStep[];
  measurements: Measurement[];
  notes: string[];
}

export function resolveOption(
  name: string,
  spec: OptionSpec,
  raw: string | undefined,
  quick: boolean,
): OptionValue {
  if (raw === undefined) return quick && spec.quick !== undefined ? spec.quick : spec.default;
  switch (spec.kind) {
    case 'number': {
      const value = Number(raw.replaceAll('_', ''));
      if (!Number.isFinite(value)) throw new Error(`--${name} expects a number, got "${raw}"`);
      return value;
    }
    case 'numbers': {
      const values = raw.split(',').map((part) => Number(part.trim().replaceAll('_', '')));
      if (values.length === 0 || values.some((value) => !Number.isFinite(value))) {
        throw new Error(`--${name} expects comma-separated numbers, got "${raw}"`);
      }
      return values;
    }
    case 'string':
      return raw;
  }
}
