import { ConflictError, ErrorCode } from '../../domain/errors.js';

/**
 * Import batches that name their order (`batch`, and `after` for the batch before), so a client may send the next
 * batch while one is being stored and still keep the sequential guarantee: a batch is stored only after the batch
 * it follows was stored, and never if that one was not. The service checks and prepares the next batch meanwhile,
 * so its writer goes from one batch to the next without waiting for the client's round trip (issue 16's bulk import).
 *
 * Names live in this process only: a batch that follows one another controller took (several replicas behind a
 * balancer), or one from before a restart, is refused as out of sequence after `unknownWaitMs`, and the client sends
 * it again once the batch before has answered.
 */
export interface ImportSequenceOptions {
  /** How long a batch waits for the batch it follows to arrive (requests on two connections may cross). */
  unknownWaitMs: number;
  /** How long a settled batch's outcome is kept for the batch after it. */
  keepMs: number;
  now?: () => number;
}

type BatchState =
  | { status: 'in-progress' }
  | { status: 'stored' | 'not-stored'; settledAt: number };

/** One attempt at storing a named batch; settle it exactly once (later calls are ignored). */
export interface BatchTicket {
  settle(stored: boolean): void;
}

export const DEFAULT_IMPORT_SEQUENCE: ImportSequenceOptions = { unknownWaitMs: 30_000, keepMs: 10 * 60_000 };

export class ImportSequence {
  private readonly batches = new Map<string, BatchState>();
  private readonly waiters = new Map<string, Set<() => void>>();
  private readonly now: () => number;

  constructor(private readonly options: ImportSequenceOptions = DEFAULT_IMPORT_SEQUENCE) {
    this.now = options.now ?? Date.now;
  }

  /**
   * Starts an attempt at `name`. Refused while another attempt is under way or once one was stored (the same
   * records twice); allowed again after an attempt that stored nothing, so a client can retry it.
   */
  begin(name: string): BatchTicket {
    this.forgetOld();
    const state = this.batches.get(name);
    if (state?.status === 'in-progress') throw new ConflictError(`Import batch ${name} is being stored already`);
    if (state?.status === 'stored') throw new ConflictError(`Import batch ${name} was stored already`);
    // Deleted first so the map stays in the order batches began (forgetOld walks it oldest first).
    this.batches.delete(name);
    this.batches.set(name, { status: 'in-progress' });
    this.notify(name);
    let settled = false;
    return {
      settle: (stored) => {
        if (settled) return;
        settled = true;
        this.batches.set(name, { status: stored ? 'stored' : 'not-stored', settledAt: this.now() });
        this.notify(name);
      },
    };
  }

  /** Resolves once batch `name` was stored; throws OUT_OF_SEQUENCE if it was not, or never arrived. */
  async follow(name: string): Promise<void> {
    const arrivedBy = this.now() + this.options.unknownWaitMs;
    for (;;) {
      const state = this.batches.get(name);
      if (state?.status === 'stored') return;
      if (state?.status === 'not-stored') {
        throw new ConflictError(`Import batch ${name}, which this one follows, was not stored, so neither was this one`,
          ErrorCode.OUT_OF_SEQUENCE);
      }
      const wait = state ? Number.POSITIVE_INFINITY : arrivedBy - this.now();
      if (wait <= 0) {
        throw new ConflictError(`Import batch ${name}, which this one follows, is unknown to this service ` +
          '(another replica or an earlier run took it?): nothing of this batch was stored; send it again once that batch answered',
          ErrorCode.OUT_OF_SEQUENCE);
      }
      await this.changeOf(name, wait);
    }
  }

  /** Settles when `name` begins or settles, or after `ms` (whichever is first). */
  private changeOf(name: string, ms: number): Promise<void> {
    return new Promise((resolve) => {
      const waiting = this.waiters.get(name) ?? new Set<() => void>();
      this.waiters.set(name, waiting);
      const timer = Number.isFinite(ms) ? setTimeout(() => done(), ms) : null;
      const done = () => {
        if (timer) clearTimeout(timer);
        waiting.delete(done);
        if (waiting.size === 0 && this.waiters.get(name) === waiting) this.waiters.delete(name);
        resolve();
      };
      waiting.add(done);
    });
  }

  private notify(name: string): void {
    for (const wake of [...this.waiters.get(name) ?? []]) wake();
  }

  /** Settled outcomes older than keepMs: the batch after them came long ago, or never will. */
  private forgetOld(): void {
    const before = this.now() - this.options.keepMs;
    for (const [name, state] of this.batches) {
      if (state.status === 'in-progress') continue;
      if (state.settledAt >= before) break;
      this.batches.delete(name);
    }
  }
}
