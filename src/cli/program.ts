import { Command, InvalidArgumentError, Option } from 'commander';
import { VERSION } from '../version.js';
import { loadCliContext } from './cli-context.js';
import type { ImportFormat, OnConflict } from './commands/import.command.js';

// Each command's module is imported when it runs: some load the whole service (the store, the MCP SDK, the
// PostgreSQL driver), and `memsvc start` forks the bridge before the controller's modules load (main.ts).

const positiveInt = (value: string): number => {
  const parsed = Number(value);
  if (!Number.isInteger(parsed) || parsed < 1) throw new InvalidArgumentError('must be a positive integer');
  return parsed;
};
const print = (text: string) => { process.stdout.write(text); };

/** The `memsvc` command line. Commands that need the service talk to the running one over HTTP. */
export function buildProgram(): Command {
  const program = new Command('memsvc')
    .description('Persistent conversation memory for LLM applications')
    .version(VERSION, '-v, --version')
    .showSuggestionAfterError()
    .configureOutput({ outputError: (text, write) => write(text.split('\n')[0]!.replace(/^error: /, 'memsvc: ') + '\n') });

  program.command('start')
    .description('run the service: API, web UI, MCP endpoint, bridge (and the proxy when enabled)')
    .action(async () => { const { runService } = await import('../main.js'); await runService(); });

  program.command('mcp')
    .description('MCP server on stdio (Claude Desktop, Cursor, ...): forwards to the running memsvc, or starts one')
    .action(async () => { const { runStdioMcp } = await import('./commands/mcp.command.js'); await runStdioMcp(loadCliContext()); });

  program.command('import')
    .description('import json or jsonl exports of any size, streamed in batches')
    .argument('<files...>', 'export files (.json: a document or an array; .jsonl/.ndjson: one record per line)')
    .addOption(new Option('--format <format>', 'file format, when the extension does not say').choices(['json', 'jsonl']))
    .addOption(new Option('--on-conflict <mode>', 'an id that exists already').choices(['skip', 'replace', 'new_id']).default('skip'))
    .option('--batch-size <n>', 'records per request (each stored all or nothing)', positiveInt, 200)
    .action(async (files: string[], options: { format?: ImportFormat; onConflict: OnConflict; batchSize: number }) => {
      const { importFiles } = await import('./commands/import.command.js');
      const totals = await importFiles(loadCliContext().client(), files, options);
      print(`imported ${totals.imported} conversations (${totals.messages} messages), replaced ${totals.replaced}, ` +
        `skipped ${totals.skipped}, renamed ${totals.renamed}\n`);
    });

  program.command('export')
    .description('export conversations with their messages')
    .addOption(new Option('--format <format>', 'output format').choices(['json', 'jsonl', 'markdown']).default('jsonl'))
    .option('--folder <path>', 'only this folder and its subfolders')
    .option('--from <date>', 'conversations active on or after this date')
    .option('--to <date>', 'conversations created on or before this date')
    .option('-o, --output <file>', 'write to a file (mode 0600) instead of stdout')
    .action(async (options: { format: 'json' | 'jsonl' | 'markdown'; folder?: string; from?: string; to?: string; output?: string }) => {
      const { exportTo } = await import('./commands/export.command.js');
      await exportTo(loadCliContext().client(), options);
    });

  program.command('search')
    .description('search stored messages')
    .argument('<query>', 'what to look for')
    .addOption(new Option('--mode <mode>', 'ranking').choices(['hybrid', 'semantic', 'keyword']))
    .option('--folder <path>', 'only this folder and its subfolders')
    .option('--label <label>', 'only conversations with this label')
    .option('--limit <n>', 'hits', positiveInt, 10)
    .option('--json', 'the whole response as JSON', false)
    .action(async (query: string, options: { mode?: 'hybrid' | 'semantic' | 'keyword'; folder?: string; label?: string; limit: number; json: boolean }) => {
      const { search } = await import('./commands/search.command.js');
      print(await search(loadCliContext().client(), query, options));
    });

  program.command('context')
    .description('the context memsvc would give an LLM for a query')
    .argument('<query>', 'what the context is for')
    .option('--budget <tokens>', 'token budget (100..200000)', positiveInt, 2000)
    .option('--json', 'the whole response as JSON', false)
    .action(async (query: string, options: { budget: number; json: boolean }) => {
      const { assembleContext } = await import('./commands/context.command.js');
      print(await assembleContext(loadCliContext().client(), query, options));
    });

  program.command('stats')
    .description("the running service's statistics")
    .option('--json', 'as JSON', false)
    .action(async (options: { json: boolean }) => {
      const { stats } = await import('./commands/stats.command.js');
      print(await stats(loadCliContext().client(), options));
    });

  program.command('backup')
    .description("copy the store to FILE (SQLite's online backup: safe while memsvc runs)")
    .argument('<file>', 'the backup file to write')
    .option('--force', 'overwrite FILE', false)
    .action(async (file: string, options: { force: boolean }) => {
      const { backup } = await import('./commands/backup.command.js');
      await backup(loadCliContext().config, file, options);
    });

  program.command('restore')
    .description('replace the store with a backup (memsvc must be stopped)')
    .argument('<file>', 'a file written by memsvc backup')
    .action(async (file: string) => {
      const { restore } = await import('./commands/restore.command.js');
      print(`${restore(loadCliContext().config, file)}\n`);
    });

  const key = program.command('key').description('the admin API key, and scoped keys on the running service');
  key.command('show').description('print the API key').action(async () => {
    const { showKey } = await import('./commands/key.command.js');
    print(showKey(loadCliContext()));
  });
  key.command('rotate').description('write a new API key (used from the next start)').action(async () => {
    const { rotateKey } = await import('./commands/key.command.js');
    print(rotateKey(loadCliContext()));
  });
  key.command('create').description('create a scoped key on the running service (its secret is printed once)')
    .argument('<name>', 'a name, unique among keys that are not revoked')
    .option('--grant <folder[:read|write]>', 'a folder subtree it may read or write (repeatable)', (value: string, all: string[]) => [...all, value], [])
    .option('--admin', 'full access, like the configured key', false)
    .option('--json', 'as JSON', false)
    .action(async (name: string, options: { grant: string[]; admin: boolean; json: boolean }) => {
      const { createKey } = await import('./commands/tenant-key.command.js');
      print(await createKey(loadCliContext().client(), name, options));
    });
  key.command('list').description('keys on the running service, with grants and last use (never a secret)')
    .option('--json', 'as JSON', false)
    .action(async (options: { json: boolean }) => {
      const { listKeys } = await import('./commands/tenant-key.command.js');
      print(await listKeys(loadCliContext().client(), options));
    });
  key.command('revoke').description('revoke a key: its requests and tokens get 401 on every replica')
    .argument('<id>', 'the key id (key_…)')
    .action(async (id: string) => {
      const { revokeKey } = await import('./commands/tenant-key.command.js');
      print(await revokeKey(loadCliContext().client(), id));
    });

  program.command('doctor')
    .description('check the config, port, data dir, bridge and model, vector index and disk space')
    .action(async () => {
      const { diagnose, formatFindings } = await import('./commands/doctor.command.js');
      const findings = await diagnose();
      print(formatFindings(findings));
      if (findings.some((finding) => finding.verdict === 'fail')) process.exitCode = 1;
    });

  program.command('migrate')
    .description("apply the configured store's pending schema migrations, or with --to copy the SQLite store to PostgreSQL")
    .option('--to <url>', 'postgres://… : copy conversations, messages, vectors and summaries there (resumable, verified)')
    .option('--batch-size <n>', 'conversations per transaction when copying', positiveInt)
    .action(async (options: { to?: string; batchSize?: number }) => {
      const { config } = loadCliContext();
      if (options.to === undefined) {
        const { migrateStore } = await import('./commands/migrate.command.js');
        return print(await migrateStore(config));
      }
      const { copyToPostgres } = await import('./commands/copy-to-postgres.command.js');
      process.exitCode = await copyToPostgres(config, options.to, options.batchSize);
    });

  return program;
}
