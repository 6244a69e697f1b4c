import { closeSync, fsyncSync, openSync, renameSync, writeSync } from 'node:fs';
import { mkdir, open, readdir, readFile, rename, unlink } from 'node:fs/promises';
import { join } from 'node:path';

/** Where an exchange goes: an existing conversation, or one to find (by label) or create. */
export type ExchangeTarget =
  | { conversationId: string }
  | { create: { label: string; folder: string; reuseByLabel: boolean; id?: string } };

/** One user message and the assistant's reply, waiting to be stored. */
export interface PendingExchange {
  /** Also stored in both messages' metadata (exchange_id), so a replay can tell it was already stored. */
  id: string;
  target: ExchangeTarget;
  /** name: the user message's author name, when it had one. */
  user: { content: string; timestamp: string; name?: string };
  assistant: { content: string; timestamp: string };
  model?: string;
  receivedAt: string;
}

/**
 * A directory of pending exchanges, one JSON file each, written atomically
 * (temporary file, fsync, rename, directory fsync) and removed once stored.
 * The proxy writes synchronously, before the client gets the answer's last
 * byte, so an exchange the client saw complete survives a kill -9. Exchanges that can
 * never be stored move to `failed/` with the reason, for an operator to inspect
 * or move back.
 */
export class ExchangeSpool {
  readonly failedDir: string;

  constructor(readonly dir: string) {
    this.failedDir = join(dir, 'failed');
  }

  async init(): Promise<void> {
    await mkdir(this.failedDir, { recursive: true, mode: 0o700 });
  }

  async write(exchange: PendingExchange): Promise<void> {
    await writeDurably(this.dir, fileName(exchange.id), JSON.stringify(exchange));
  }

  /** Durable when it returns (file and directory fsynced); blocks the event loop well under a millisecond. */
  writeNow(exchange: PendingExchange): void {
    const name = fileName(exchange.id);
    const temporary = join(this.dir, `.${name}.tmp`);
    const fd = openSync(temporary, 'w', 0o600);
    try {
      writeSync(fd, JSON.stringify(exchange));
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    renameSync(temporary, join(this.dir, name));
    syncDirectory(this.dir);
  }

  async remove(id: string): Promise<void> {
    await unlink(join(this.dir, fileName(id))).catch((error: NodeJS.ErrnoException) => {
      if (error.code !== 'ENOENT') throw error;
    });
  }

  async fail(exchange: PendingExchange, reason: string): Promise<void> {
    await writeDurably(this.failedDir, fileName(exchange.id), JSON.stringify({ ...exchange, failure: reason }));
    await this.remove(exchange.id);
  }

  /**
   * Every pending exchange left by an earlier run, whatever its file's name
   * (a complete temporary file counts too). An unreadable temporary file was
   * cut mid-write, before its client got an answer, and is dropped; any other
   * unreadable file moves to failed/.
   */
  async readAll(): Promise<{ exchanges: PendingExchange[]; unreadable: string[] }> {
    const byId = new Map<string, PendingExchange>();
    const unreadable: string[] = [];
    const entries = (await readdir(this.dir, { withFileTypes: true })).filter((entry) => entry.isFile());
    for (const name of entries.map((entry) => entry.name).sort()) {
      const temporary = name.endsWith('.tmp');
      try {
        const parsed = JSON.parse(await readFile(join(this.dir, name), 'utf8')) as PendingExchange;
        if (typeof parsed.id !== 'string' || !parsed.user || !parsed.assistant || !parsed.target) throw new Error('not an exchange');
        if (temporary) {
          // Give it its proper name, so removing it once stored works as for any other.
          await rename(join(this.dir, name), join(this.dir, fileName(parsed.id)));
        }
        byId.set(parsed.id, parsed);
      } catch {
        if (temporary) {
          await unlink(join(this.dir, name)).catch(() => undefined);
          continue;
        }
        unreadable.push(name);
        await rename(join(this.dir, name), join(this.failedDir, name)).catch(() => undefined);
      }
    }
    return { exchanges: [...byId.values()], unreadable };
  }
}

const fileName = (id: string) => `${id}.json`;

/** Exchanges waiting in a spool directory to be stored, and those moved to failed/ (0 when the directory does not exist). */
export async function spoolDepth(dir: string): Promise<{ pending: number; failed: number }> {
  const count = async (path: string) => {
    try {
      return (await readdir(path, { withFileTypes: true })).filter((entry) => entry.isFile() && entry.name.endsWith('.json')).length;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return 0;
      throw error;
    }
  };
  return { pending: await count(dir), failed: await count(join(dir, 'failed')) };
}

async function writeDurably(dir: string, name: string, text: string): Promise<void> {
  const temporary = join(dir, `.${name}.tmp`);
  const handle = await open(temporary, 'w', 0o600);
  try {
    await handle.writeFile(text);
    await handle.sync();
  } finally {
    await handle.close();
  }
  await rename(temporary, join(dir, name));
  syncDirectory(dir);
}

/** Makes a rename in the directory durable. */
function syncDirectory(dir: string): void {
  const fd = openSync(dir, 'r');
  try {
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}
