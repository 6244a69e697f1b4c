import type { Worker } from 'node:worker_threads';
import type { Logger } from '../../ports/logger.js';
import type { PeriodReader } from '../../ports/period-reader.js';
import { mayNamePeriod, type NamedPeriod } from '../../ranking/time-mention.js';
import { startModuleWorker } from '../vector/module-worker.js';
import { WorkerCalls } from '../worker-calls.js';
import type { PeriodParsingReply } from './period-parsing.protocol.js';

/**
 * How long a question waits for its periods before it is answered without them: a safety net, not a budget. Warm, a
 * parse takes well under 10 ms, even of a 10,000-character question; a thread just started first loads and warms
 * chrono-node (0.4-1.2 s on a slow 2-core machine, over 1.5 s in a busy test run under tsx), and a question asked then
 * should still be ranked by its period.
 */
export const PERIOD_PARSING_TIMEOUT_MS = 10_000;

/**
 * Reads the periods a question names on a thread of its own (period-parsing.worker.ts). Questions with no date
 * word (mayNamePeriod: most of them) are answered here without asking it. The named-period bonus only refines a
 * ranking, so a question is never failed for it: one the thread does not answer in time, or answers with an error,
 * names no period. A thread that ends is replaced at the next dated question.
 */
export class PeriodParsingThread implements PeriodReader {
  private thread: { worker: Worker; calls: WorkerCalls } | null = null;
  private closed = false;

  private constructor(private readonly log: Logger, private readonly timeoutMs: number) {}

  /** Starts the thread now, so that it has warmed by the first dated question. */
  static start(log: Logger, timeoutMs = PERIOD_PARSING_TIMEOUT_MS): PeriodParsingThread {
    const parsing = new PeriodParsingThread(log, timeoutMs);
    parsing.running();
    return parsing;
  }

  /**
   * Starts the thread at the first dated question only: for a service that gives named periods no weight
   * (search.time_weight 0), which then never asks, so never pays for the thread (~29 MiB, a core for a second).
   */
  static onDemand(log: Logger, timeoutMs = PERIOD_PARSING_TIMEOUT_MS): PeriodParsingThread {
    return new PeriodParsingThread(log, timeoutMs);
  }

  async namedPeriods(query: string, now: Date): Promise<NamedPeriod[]> {
    if (this.closed || !mayNamePeriod(query)) return [];
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<null>((resolve) => { timer = setTimeout(() => resolve(null), this.timeoutMs); });
    try {
      const periods = await Promise.race([this.running().calls.send({ query, now: now.getTime() }), late]);
      if (periods === null) {
        this.log.warn({ timeoutMs: this.timeoutMs }, 'the date-parsing thread did not answer in time; ranking without named periods');
        return [];
      }
      return periods as NamedPeriod[];
    } catch (error) {
      this.log.warn({ err: error }, 'reading the periods a question names failed; ranking without them');
      return [];
    } finally {
      clearTimeout(timer);
    }
  }

  /** Ends the thread; later questions name no period. */
  async close(): Promise<void> {
    this.closed = true;
    const thread = this.thread;
    this.thread = null;
    await thread?.worker.terminate();
  }

  /** The thread, started again if the last one ended. */
  private running(): { worker: Worker; calls: WorkerCalls } {
    if (this.thread && !this.thread.calls.failed) return this.thread;
    const worker = startModuleWorker(import.meta.url, 'period-parsing.worker');
    const calls = new WorkerCalls(worker, 'date-parsing thread', (error) => {
      if (!this.closed) this.log.warn({ err: error }, 'the date-parsing thread ended; it is started again at the next dated question');
    });
    worker.on('message', (reply: PeriodParsingReply) => {
      calls.settle(reply.id, reply.ok ? { ok: true, value: reply.periods } : { ok: false, error: new Error(`date parsing: ${reply.error}`) });
    });
    this.thread = { worker, calls };
    return this.thread;
  }
}
