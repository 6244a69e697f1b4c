import type { Logger } from '../../ports/logger.js';

/**
 * Records clients' reads of conversations (their last access, which pruning ranks by) without making a read
 * wait for the write. On SQLite that write goes through the writer thread, behind whatever it is committing:
 * during a bulk ingest at 100,000 messages, GET /conversations/:id took p50 / p95 / p99 4.5 / 18.0 / 34.4 ms
 * waiting for it, and 0.9 / 5.5 / 9.1 ms without (scale bench, bench/NOTES.md, session 19).
 *
 * Accesses go out in rounds, one round at a time: a conversation read again while a round is being written
 * waits for the next, with its latest time only. So the stored time never goes back to an older read's (a
 * PostgreSQL pool may commit two writes sent together in either order), and what waits is at most one entry a
 * conversation. A write that fails is logged and dropped: an access time is not something a client stored.
 */
export class AccessRecorder {
  private waiting = new Map<string, string>();
  private writing: Promise<void> | null = null;

  constructor(
    private readonly touch: (id: string, at: string) => Promise<void>,
    private readonly log?: Logger,
  ) {}

  /** Records that conversation `id` was read at `at` (ISO time); returns at once. */
  record(id: string, at: string): void {
    this.waiting.set(id, at);
    this.writing ??= this.writeRounds();
  }

  /** Settles once every access recorded so far is stored (or its write failed). */
  async settled(): Promise<void> {
    await this.writing;
  }

  private async writeRounds(): Promise<void> {
    try {
      while (this.waiting.size > 0) {
        const round = this.waiting;
        this.waiting = new Map();
        await Promise.all([...round].map(([id, at]) => this.touch(id, at).catch((error: unknown) => {
          this.log?.warn({ err: error, conversationId: id }, 'recording a conversation access failed');
        })));
      }
    } finally {
      this.writing = null;
    }
  }
}
