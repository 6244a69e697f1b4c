/**
 * Benchmark runner: `npm run bench -- [scenario ...] [--quick] [--<option> <value> ...]`.
 * Scenarios are the `bench/<name>.bench.ts` files (see bench/README.md).
 */
import { execFileSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { cpus, loadavg, totalmem } from 'node:os';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { join } from 'node:path';
import { formatReport, writeJson } from './lib/report.js';
import { resolveOption, type OptionValue, type Scenario, type ScenarioContext } from './lib/scenario.js';

const BENCH_DIR = fileURLToPath(new URL('.', import.meta.url));
const RESULTS_DIR = join(BENCH_DIR, 'results');
const GLOBAL_FLAGS: Record<string, string> = {
  quick: 'small sizes for a smoke run (results go to results/<scenario>.quick.json)',
  'in-process': 'run the controller in the bench process instead of a child process',
  'keep-data': 'keep the temp data dir (its path is printed)',
  list: 'list scenarios and their options',
  help: 'this help',
};
const GLOBAL_VALUES: Record<string, string> = {
  'data-dir': 'persistent data dir (<dir>/<scenario>): an already seeded store is reused and only topped up',
};

interface Cli {
  scenarios: string[];
  flags: Set<string>;
  /** Values of GLOBAL_VALUES flags. */
  globals: Map<string, string>;
  /** Scenario options. */
  values: Map<string, string>;
}

async function main(): Promise<number> {
  const cli = parseArgs(process.argv.slice(2));
  const available = await discoverScenarios();
  if (cli.flags.has('help') || cli.flags.has('list')) {
    process.stdout.write(usage(available));
    return 0;
  }
  const unknown = cli.scenarios.filter((name) => !available.has(name));
  if (unknown.length) throw new Error(`unknown scenario(s) ${unknown.join(', ')}; available: ${[...available.keys()].join(', ')}`);
  const selected = (cli.scenarios.length ? cli.scenarios : [...available.keys()]).map((name) => available.get(name)!);

  const known = new Set(selected.flatMap((scenario) => Object.keys(scenario.options)));
  const stray = [...cli.values.keys()].filter((name) => !known.has(name));
  if (stray.length) throw new Error(`unknown option(s) ${stray.map((s) => `--${s}`).join(', ')} (see --help)`);

  const quick = cli.flags.has('quick') || envFlag('QUICK');
  let failures = 0;
  for (const scenario of selected) {
    const options = new Map<string, OptionValue>();
    for (const [name, spec] of Object.entries(scenario.options)) {
      options.set(name, resolveOption(name, spec, cli.values.get(name) ?? envValue(name), quick));
    }
    const context = buildContext(scenario, options, {
      quick,
      inProcess: cli.flags.has('in-process') || envFlag('IN_PROCESS'),
      keepData: cli.flags.has('keep-data') || envFlag('KEEP_DATA'),
      dataDir: cli.globals.get('data-dir') ?? process.env.BENCH_DATA_DIR,
    });
    const startedAt = new Date();
    const loadStart = loadavg();
    process.stderr.write(`\n[bench] ${scenario.name}: ${scenario.description}${quick ? ' (quick)' : ''}\n`);
    try {
      const report = await scenario.run(context);
      const finishedAt = new Date();
      process.stdout.write(`\n${formatReport(scenario.name, report)}\n`);
      const file = join(RESULTS_DIR, `${scenario.name}${quick ? '.quick' : ''}.json`);
      writeJson(file, {
        scenario: scenario.name,
        description: scenario.description,
        quick,
        command: `npm run bench -- ${process.argv.slice(2).join(' ')}`.trim(),
        started_at: startedAt.toISOString(),
        finished_at: finishedAt.toISOString(),
        duration_s: (finishedAt.getTime() - startedAt.getTime()) / 1000,
        environment: environment(loadStart),
        options: Object.fromEntries(options),
        ...report,
      });
      process.stdout.write(`results: ${file}\n`);
      const errors = report.measurements.reduce((sum, m) => sum + m.errors, 0);
      if (errors > 0) {
        process.stderr.write(`[bench] ${scenario.name}: ${errors} failed requests\n`);
        failures += 1;
      }
    } catch (error) {
      failures += 1;
      process.stderr.write(`[bench] ${scenario.name} failed: ${(error as Error).stack ?? String(error)}\n`);
    }
  }
  return failures > 0 ? 1 : 0;
}

function buildContext(
  scenario: Scenario,
  options: Map<string, OptionValue>,
  settings: { quick: boolean; inProcess: boolean; keepData: boolean; dataDir: string | undefined },
): ScenarioContext {
  const get = (name: string, kind: string): OptionValue => {
    const spec = scenario.options[name];
    if (!spec || spec.kind !== kind) throw new Error(`${scenario.name} reads undeclared ${kind} option "${name}"`);
    return options.get(name)!;
  };
  const started = performance.now();
  return {
    quick: settings.quick,
    serverMode: settings.inProcess ? 'in-process' : 'child',
    keepData: settings.keepData,
    ...(settings.dataDir ? { dataDir: join(settings.dataDir, scenario.name) } : {}),
    number: (name) => get(name, 'number') as number,
    numbers: (name) => get(name, 'numbers') as readonly number[],
    string: (name) => get(name, 'string') as string,
    log: (message) => {
      const seconds = ((performance.now() - started) / 1000).toFixed(1).padStart(6);
      process.stderr.write(`[${seconds}s] ${message}\n`);
    },
  };
}

async function discoverScenarios(): Promise<Map<string, Scenario>> {
  const scenarios = new Map<string, Scenario>();
  const files = readdirSync(BENCH_DIR).filter((file) => file.endsWith('.bench.ts')).sort();
  for (const file of files) {
    const module = (await import(pathToFileURL(join(BENCH_DIR, file)).href)) as { scenario?: Scenario };
    const name = file.slice(0, -'.bench.ts'.length);
    if (!module.scenario) throw new Error(`bench/${file} must export \`scenario\``);
    if (module.scenario.name !== name) throw new Error(`bench/${file} exports scenario "${module.scenario.name}", expected "${name}"`);
    scenarios.set(name, module.scenario);
  }
  return scenarios;
}

function parseArgs(args: readonly string[]): Cli {
  const cli: Cli = { scenarios: [], flags: new Set(), globals: new Map(), values: new Map() };
  for (let i = 0; i < args.length; i += 1) {
    const arg = args[i]!;
    if (arg === '-h') { cli.flags.add('help'); continue; }
    if (!arg.startsWith('--')) { cli.scenarios.push(arg); continue; }
    const [rawName, inline] = arg.slice(2).split(/=(.*)/s, 2) as [string, string | undefined];
    if (rawName in GLOBAL_FLAGS) { cli.flags.add(rawName); continue; }
    const value = inline ?? args[i + 1];
    if (value === undefined) throw new Error(`--${rawName} needs a value`);
    if (inline === undefined) i += 1;
    if (rawName in GLOBAL_VALUES) cli.globals.set(rawName, value);
    else cli.values.set(rawName, value);
  }
  return cli;
}

/** BENCH_<NAME> with dashes as underscores, e.g. BENCH_CONVERSATIONS=100000, BENCH_CREATE_CONCURRENCY=1,8. */
function envValue(name: string): string | undefined {
  return process.env[`BENCH_${name.replaceAll('-', '_').toUpperCase()}`];
}

function envFlag(name: string): boolean {
  const value = process.env[`BENCH_${name}`];
  return value !== undefined && value !== '' && value !== '0' && value !== 'false';
}

function environment(loadStart: number[]) {
  const cpuList = cpus();
  return {
    node: process.version,
    platform: `${process.platform} ${process.arch}`,
    cpu: cpuList[0]?.model ?? 'unknown',
    cpu_count: cpuList.length,
    memory_gb: Math.round(totalmem() / 2 ** 30),
    loadavg_start: loadStart.map((value) => Number(value.toFixed(2))),
    loadavg_end: loadavg().map((value) => Number(value.toFixed(2))),
    git: gitDescription(),
  };
}

function gitDescription(): string {
  try {
    const commit = execFileSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: BENCH_DIR, encoding: 'utf8' }).trim();
    const dirty = execFileSync('git', ['status', '--porcelain', '--', '../src'], { cwd: BENCH_DIR, encoding: 'utf8' }).trim();
    return dirty ? `${commit} (src has uncommitted changes)` : commit;
  } catch {
    return 'unknown';
  }
}

function usage(scenarios: Map<string, Scenario>): string {
  const lines = ['usage: npm run bench -- [scenario ...] [flags] [--<option> <value> ...]', '', 'flags:'];
  for (const [flag, description] of Object.entries(GLOBAL_FLAGS)) lines.push(`  --${flag.padEnd(14)} ${description}`);
  for (const [flag, description] of Object.entries(GLOBAL_VALUES)) lines.push(`  --${`${flag} <dir>`.padEnd(14)} ${description}`);
  lines.push('', 'Options can also be set as environment variables BENCH_<OPTION> (e.g. BENCH_CONVERSATIONS=100000).', '');
  for (const scenario of scenarios.values()) {
    lines.push(`${scenario.name}: ${scenario.description}`);
    for (const [name, spec] of Object.entries(scenario.options)) {
      const show = (value: number | string | readonly number[]) => (Array.isArray(value) ? value.join(',') : String(value));
      const quick = spec.quick !== undefined ? `, quick ${show(spec.quick)}` : '';
      lines.push(`  --${name.padEnd(20)} ${spec.description} (default ${show(spec.default)}${quick})`);
    }
    lines.push('');
  }
  return `${lines.join('\n')}\n`;
}

main().then((code) => {
  process.exitCode = code;
}, (error: unknown) => {
  process.stderr.write(`[bench] ${(error as Error).message}\n`);
  process.exitCode = 2;
});
