import { mkdir, open, readdir, readFile, rename, unlink } from 'node:fs/promises';
import { join } from 'node:path';

/** Where an exchange goes: an existing conversation, or one to find (by label) or create. */
export type ExchangeTarget =
  | { conversationId: string }
  | { create: { label: string; folder: string; reuseByLabel: boolean } };

/** One user message and the assistant's reply, waiting to be stored. */
export interface PendingExchange {
  /** Also stored in both messages' metadata (exchange_id), so a replay can tell it was already stored. */
  id: string;
  target: ExchangeTarget;
  user: { content: string; timestamp: string };
  assistant: { content: string; timestamp: string };
  model?: string;
  receivedAt: string;
}

/**
 * A directory of pending exchanges, one JSON file each, written atomically
 * (temporary file, fsync, rename) and removed once stored. Exchanges that can
 * never be stored move to `failed/` with the reason, for an operator to inspect
 * or move back.
 */
export class ExchangeSpool {
  readonly failedDir: string;

  constructor(readonly dir: string) {
    this.failedDir = join(dir, 'failed');
  }

  async init(): Promise<void> {
    await mkdir(this.failedDir, { recursive: true });
  }

  async write(exchange: PendingExchange): Promise<void> {
    await writeDurably(this.dir, fileName(exchange.id), JSON.stringify(exchange));
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

  /** Every pending exchange left by an earlier run; unreadable files move to failed/. */
  async readAll(): Promise<{ exchanges: PendingExchange[]; unreadable: string[] }> {
    const exchanges: PendingExchange[] = [];
    const unreadable: string[] = [];
    for (const name of (await readdir(this.dir)).filter((n) => n.endsWith('.json')).sort()) {
      try {
        const parsed = JSON.parse(await readFile(join(this.dir, name), 'utf8')) as PendingExchange;
        if (typeof parsed.id !== 'string' || !parsed.user || !parsed.assistant || !parsed.target) throw new Error('not an exchange');
        exchanges.push(parsed);
      } catch {
        unreadable.push(name);
        await rename(join(this.dir, name), join(this.failedDir, name)).catch(() => undefined);
      }
    }
    return { exchanges, unreadable };
  }
}

const fileName = (id: string) => `${id}.json`;

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
}
