import { copySqliteToPostgres, type StoreCounts } from '../../adapters/postgres/copy-from-sqlite.js';
import type { Config } from '../../config/config.schema.js';
import { CliError } from '../cli-errors.js';
import { createProgress } from '../progress.js';

/** `memsvc migrate --to postgres://…`: the day a user outgrows one machine. Returns the exit code. */
export async function copyToPostgres(config: Config, url: string, batchSize?: number, out: NodeJS.WriteStream = process.stderr): Promise<number> {
  if (!/^postgres(ql)?:\/\//.test(url)) throw new CliError('--to takes a postgres:// connection string');
  const progress = createProgress('copying conversations', { stream: out });
  const report = await copySqliteToPostgres({
    dataDir: config.server.data_dir,
    url,
    ...(batchSize ? { batchSize } : {}),
    onProgress: ({ conversations, totalConversations }) => progress.update(conversations, totalConversations),
  });
  progress.finish(`copied ${report.copied} conversations (${report.skipped} already there)`);
  const names: Array<keyof StoreCounts> = ['conversations', 'messages', 'vectors', 'summaries'];
  out.write(`${names.map((name) => `  ${name.padEnd(13)} ${String(report.source[name]).padStart(10)} → ${report.target[name]}`).join('\n')}\n`);
  if (!report.verified) {
    out.write('memsvc: the counts differ: run the same command again to resume, or check the target holds only this store\n');
    return 1;
  }
  out.write('verified: the target holds every conversation, message, vector and summary.\n' +
    'Next: set storage.driver: postgres and storage.url (MEMSVC_STORAGE_DRIVER, MEMSVC_STORAGE_URL) and start memsvc.\n');
  return 0;
}
