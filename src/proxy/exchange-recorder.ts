import type { MessageInput } from '../domain/conversation.js';
import { DomainError } from '../domain/errors.js';
import type { Logger } from '../ports/logger.js';
import type { ConversationTargets, ProxyConversations } from './conversation-target.js';
import type { ExchangeSpool, PendingExchange } from './exchange-spool.js';

export interface RecorderOptions {
  /** Attempts per exchange in one process run (the spool carries it over to the next run). */
  maxAttempts: number;
  baseDelayMs: number;
  maxDelayMs: number;
  random?: () => number;
}

export interface ExchangeRecorderDeps {
  conversations: ProxyConversations;
  targets: ConversationTargets;
  /** null: in memory only (nothing survives a restart). */
  spool: ExchangeSpool | null;
  log: Logger;
  options: RecorderOptions;
}

interface Pending {
  exchange: PendingExchange;
  attempts: number;
  /** Left by an earlier run or failed once: it may have been stored already, check before appending. */
  mayBeStored: boolean;
  timer?: NodeJS.Timeout;
}

/** Marks the messages the proxy stored. */
export const PROXY_SOURCE = 'memsvc-proxy';
/** How far back a replay looks for its own messages. */
const DUPLICATE_WINDOW = 20;

/**
 * Stores exchanges after the answer went out, so storing never delays or breaks
 * an answer. Each exchange is first written to the spool (fsync'd), then stored;
 * a failure is logged and retried with exponential backoff and jitter, up to
 * maxAttempts; the spool file goes once the exchange is stored. Exchanges in the
 * spool at start (a crash, a shutdown during retries) are stored then. An exchange
 * the store refuses for good (a 4xx: conversation deleted meanwhile, too long)
 * or that runs out of attempts moves to the spool's failed/ directory.
 */
export class ExchangeRecorder {
  private readonly pending = new Map<string, Pending>();
  private readonly inFlight = new Set<Promise<void>>();
  private closed = false;

  constructor(private readonly deps: ExchangeRecorderDeps) {}

  /** Prepares the spool and takes up what an earlier run left in it. */
  async start(): Promise<void> {
    const { spool, log } = this.deps;
    if (!spool) return;
    await spool.init();
    const { exchanges, unreadable } = await spool.readAll();
    if (unreadable.length > 0) log.error({ files: unreadable, dir: spool.failedDir }, 'unreadable proxy spool files moved aside');
    if (exchanges.length > 0) log.info({ count: exchanges.length }, 'storing proxy exchanges left from an earlier run');
    for (const exchange of exchanges) this.track(this.attempt(this.add(exchange, true)));
  }

  /**
   * Hands an answered exchange over before its client gets the last byte: it
   * is in the spool (fsynced) when this returns; storing happens afterwards.
   */
  record(exchange: PendingExchange): void {
    if (this.closed) {
      this.deps.log.error({ exchangeId: exchange.id }, 'proxy exchange arrived after shutdown; not stored');
      return;
    }
    const entry = this.add(exchange, false);
    try {
      this.deps.spool?.writeNow(exchange);
    } catch (error) {
      this.deps.log.error({ err: error, exchangeId: exchange.id }, 'proxy spool write failed; the exchange is kept in memory only');
    }
    this.track(this.attempt(entry));
  }

  /** Exchanges not yet stored (waiting for a retry or in flight). */
  get size(): number {
    return this.pending.size;
  }

  /** Resolves when no store attempt is running (retries may still be scheduled). */
  async settled(): Promise<void> {
    while (this.inFlight.size > 0) await Promise.allSettled([...this.inFlight]);
  }

  /** Stops retrying; what is not stored stays in the spool for the next start. */
  async close(): Promise<void> {
    this.closed = true;
    for (const entry of this.pending.values()) clearTimeout(entry.timer);
    await this.settled();
    if (this.pending.size > 0) {
      this.deps.log.warn({ count: this.pending.size, spooled: this.deps.spool !== null },
        'proxy exchanges not stored yet; they are stored at the next start');
    }
  }

  private add(exchange: PendingExchange, mayBeStored: boolean): Pending {
    const entry: Pending = { exchange, attempts: 0, mayBeStored };
    this.pending.set(exchange.id, entry);
    return entry;
  }

  private track(work: Promise<void>): void {
    const tracked = work.catch((error: unknown) => {
      this.deps.log.error({ err: error }, 'proxy exchange recorder failed');
    }).finally(() => this.inFlight.delete(tracked));
    this.inFlight.add(tracked);
  }

  private async attempt(entry: Pending): Promise<void> {
    if (this.closed) return;
    const { exchange } = entry;
    entry.attempts += 1;
    try {
      const conversationId = await this.store(entry);
      this.pending.delete(exchange.id);
      this.deps.log.debug({ exchangeId: exchange.id, conversationId, attempts: entry.attempts }, 'proxy exchange stored');
      await this.deps.spool?.remove(exchange.id).catch((error: unknown) =>
        this.deps.log.warn({ err: error, exchangeId: exchange.id }, 'stored proxy exchange could not be removed from the spool'));
    } catch (error) {
      entry.mayBeStored = true;
      // The store refused the exchange itself (not found, invalid, too long): trying again cannot help.
      const permanent = error instanceof DomainError && error.kind !== 'unavailable';
      const outOfAttempts = entry.attempts >= this.deps.options.maxAttempts;
      if (permanent || outOfAttempts) {
        this.pending.delete(exchange.id);
        const reason = permanent ? (error as Error).message : `gave up after ${entry.attempts} attempts: ${(error as Error).message}`;
        this.deps.log.error({ err: error, exchangeId: exchange.id, attempts: entry.attempts, dir: this.deps.spool?.failedDir },
          'proxy exchange could not be stored; kept in the spool\'s failed directory');
        await this.deps.spool?.fail(exchange, reason).catch((spoolError: unknown) =>
          this.deps.log.error({ err: spoolError, exchange }, 'failed proxy exchange could not be written aside'));
        return;
      }
      const delay = this.delay(entry.attempts);
      this.deps.log.warn({ err: error, exchangeId: exchange.id, attempts: entry.attempts, retryInMs: Math.round(delay) },
        'storing a proxy exchange failed; will retry');
      entry.timer = setTimeout(() => {
        entry.timer = undefined;
        this.track(this.attempt(entry));
      }, delay);
      entry.timer.unref();
    }
  }

  /** Appends (or creates) and returns the conversation id; a replay that finds its messages stored does nothing. */
  private async store(entry: Pending): Promise<string> {
    const { exchange } = entry;
    const messages = toMessages(exchange);
    const { target } = exchange;
    if ('conversationId' in target) {
      if (entry.mayBeStored && await this.alreadyStored(target.conversationId, exchange.id)) return target.conversationId;
      await this.deps.conversations.appendMessages(target.conversationId, messages);
      return target.conversationId;
    }
    const announced = target.create.id;
    if (entry.mayBeStored && announced !== undefined && await this.deps.targets.exists(announced)
      && await this.alreadyStored(announced, exchange.id)) return announced;
    if (entry.mayBeStored && target.create.reuseByLabel) {
      const existing = await this.deps.targets.findByLabel(target.create.label, target.create.folder);
      if (existing && await this.alreadyStored(existing.id, exchange.id)) return existing.id;
    }
    const placed = await this.deps.targets.place(target.create, messages);
    exchange.target = { conversationId: placed.id };
    return placed.id;
  }

  private async alreadyStored(conversationId: string, exchangeId: string): Promise<boolean> {
    const { total } = await this.deps.conversations.listMessages(conversationId, { offset: 0, limit: 1 });
    const offset = Math.max(0, total - DUPLICATE_WINDOW);
    const { items } = await this.deps.conversations.listMessages(conversationId, { offset, limit: DUPLICATE_WINDOW });
    return items.some((message) => message.metadata?.exchange_id === exchangeId);
  }

  /** Exponential backoff with jitter in [delay/2, delay]. */
  private delay(attempts: number): number {
    const { baseDelayMs, maxDelayMs, random = Math.random } = this.deps.options;
    const delay = Math.min(maxDelayMs, baseDelayMs * 2 ** (attempts - 1));
    return delay / 2 + random() * (delay / 2);
  }
}

function toMessages(exchange: PendingExchange): MessageInput[] {
  const metadata = { source: PROXY_SOURCE, exchange_id: exchange.id, ...(exchange.model ? { model: exchange.model } : {}) };
  return [
    { role: 'user', name: exchange.user.name, content: exchange.user.content, timestamp: exchange.user.timestamp, metadata },
    { role: 'assistant', content: exchange.assistant.content, timestamp: exchange.assistant.timestamp, metadata },
  ];
}
