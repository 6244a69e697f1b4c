import { copySqliteToPostgres, type CopyProgress } from '../adapters/postgres/copy-from-sqlite.js';
import type { Config } from '../config/config.schema.js';
import { openStorage } from '../storage.js';

export interface MigrateOptions {
  /** postgres://… : copy the configured SQLite store there. Absent: bring the configured store's schema up to date. */
  to?: string;
  batchSize?: number;
}

/** `memsvc migrate [--to postgres://…]`. Returns the process exit code. */
export async function runMigrate(config: Config, options: MigrateOptions, out: NodeJS.WriteStream = process.stderr): Promise<number> {
  if (options.to === undefined) {
    const storage = await openStorage(config);
    await storage.close();
    out.write(`memsvc: the ${storage.driver} store is up to date\n`);
    return 0;
  }
  if (!/^postgres(ql)?:\/\//.test(options.to)) throw new Error('--to takes a postgres:// connection string');
  const report = await copySqliteToPostgres({
    dataDir: config.server.data_dir,
    url: options.to,
    ...(options.batchSize ? { batchSize: options.batchSize } : {}),
    onProgress: progressPrinter(out),
  });
  const line = (name: keyof typeof report.source) => `  ${name.padEnd(13)} ${String(report.source[name]).padStart(10)} → ${report.target[name]}`;
  out.write(`copied ${report.copied} conversations (${report.skipped} already there)\n`);
  out.write(`${['conversations', 'messages', 'vectors', 'summaries'].map((name) => line(name as keyof typeof report.source)).join('\n')}\n`);
  if (!report.verified) {
    out.write('memsvc: the counts differ: run the same command again to resume, or check the target holds only this store\n');
    return 1;
  }
  out.write(`verified: the target holds every conversation, message, vector and summary.\n` +
    `Next: set storage.driver: postgres and storage.url (MEMSVC_STORAGE_DRIVER, MEMSVC_STORAGE_URL) and start memsvc.\n`);
  return 0;
}

/** A bar that redraws in place on a terminal; a plain line per tenth otherwise (logs, CI). */
function progressPrinter(out: NodeJS.WriteStream): (progress: CopyProgress) => void {
  let lastTenth = -1;
  return ({ conversations, totalConversations }) => {
    const share = totalConversations === 0 ? 1 : conversations / totalConversations;
    if (out.isTTY) {
      const width = 30;
      const filled = Math.round(share * width);
      out.write(`\r[${'#'.repeat(filled)}${'.'.repeat(width - filled)}] ${Math.round(share * 100)}% ${conversations}/${totalConversations} conversations`);
      if (conversations >= totalConversations) out.write('\n');
      return;
    }
    const tenth = Math.floor(share * 10);
    if (tenth > lastTenth) {
      lastTenth = tenth;
      out.write(`copying: ${conversations}/${totalConversations} conversations (${Math.round(share * 100)}%)\n`);
    }
  };
}
