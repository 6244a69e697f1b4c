import { createHash } from 'node:crypto';
import { ConversationNotFoundError, ErrorCode, UnavailableError } from '../../domain/errors.js';
import { isUuid } from '../../domain/ids.js';
import type { Clock } from '../../ports/clock.js';
import type { ConversationStore } from '../../ports/conversation-store.js';
import { UpstreamError } from '../../domain/upstream-error.js';
import type { LanguageModel } from '../../ports/language-model.js';
import type { SummaryLevel, SummaryStore } from '../../ports/summary-store.js';

const DAY_MS = 86_400_000;

interface LevelPlan {
  spanMs: number;
  targetWords: number;
  /** Weekly and monthly are built from consecutive summaries of the level below. */
  parts?: { level: SummaryLevel; count: number };
}

/** daily: the last 24 h; weekly: 7 dailies (7 days); monthly: 4 weeklies (28 days). */
export const SUMMARY_LEVELS: Readonly<Record<SummaryLevel, LevelPlan>> = {
  daily: { spanMs: DAY_MS, targetWords: 200 },
  weekly: { spanMs: 7 * DAY_MS, targetWords: 500, parts: { level: 'daily', count: 7 } },
  monthly: { spanMs: 28 * DAY_MS, targetWords: 1000, parts: { level: 'weekly', count: 4 } },
};

export interface SummaryLimits {
  /** At most this many of a window's newest messages are sent to the bridge. */
  maxSourceMessages: number;
  /** ... and at most this many characters of them. */
  maxSourceChars: number;
  /** Stored summaries kept per conversation and level (older ones are dropped). */
  keepPerLevel: number;
}

export const DEFAULT_SUMMARY_LIMITS: SummaryLimits = { maxSourceMessages: 2000, maxSourceChars: 1_000_000, keepPerLevel: 64 };

export interface SummariesServiceDeps {
  conversations: ConversationStore;
  summaries: SummaryStore;
  language: LanguageModel;
  clock: Clock;
  limits?: SummaryLimits;
  /** Records a read of a conversation (a summary request counts as one); returns at once. */
  recordAccess: (conversationId: string, at: string) => void;
}

export interface SummaryResult {
  conversationId: string;
  level: SummaryLevel;
  summary: string;
  generatedAt: string;
  windowStart: string;
  windowEnd: string;
  /** `now`, or `newest_message` when the window up to now held no message. */
  anchoredOn: 'now' | 'newest_message';
  sourceCount: number;
  wordCount: number;
  model: string | null;
  cached: boolean;
  note?: string;
}

interface Built {
  summary: string;
  model: string | null;
  sourceHash: string;
  sourceCount: number;
  generatedAt: string;
  cached: boolean;
}

const EMPTY_HASH = 'empty';

/**
 * Hierarchical summaries: a daily summary condenses the messages of a 24-hour
 * window, a weekly one the 7 daily summaries of its days, a monthly one the 4
 * weekly summaries of its weeks. Every summary is stored under a hash of what
 * it summarizes, so it is reused exactly as long as its window's messages are
 * the same, and regenerated when a message arrives in (or leaves) the window.
 */
export class SummariesService {
  private readonly limits: SummaryLimits;

  constructor(private readonly deps: SummariesServiceDeps) {
    this.limits = deps.limits ?? DEFAULT_SUMMARY_LIMITS;
  }

  async summarize(conversationId: string, level: SummaryLevel, options: { refresh?: boolean } = {}): Promise<SummaryResult> {
    if (!isUuid(conversationId)) throw new ConversationNotFoundError(conversationId);
    const conversation = await this.deps.conversations.get(conversationId);
    if (!conversation) throw new ConversationNotFoundError(conversationId);
    const now = this.deps.clock.now();
    this.deps.recordAccess(conversationId, now.toISOString());

    const plan = SUMMARY_LEVELS[level];
    // The window ends now; when nothing was said in it, it ends at the newest message instead,
    // so a conversation that went quiet still gets its last day (week, month) summarized.
    let endMs = now.getTime();
    let anchoredOn: SummaryResult['anchoredOn'] = 'now';
    const recent = await this.deps.summaries.messageKeysInWindow(conversationId, iso(endMs - plan.spanMs), iso(endMs));
    if (recent.length === 0 && conversation.lastMessageAt !== null) {
      endMs = Date.parse(conversation.lastMessageAt);
      anchoredOn = 'newest_message';
    }
    const built = await this.build(conversationId, level, endMs, options.refresh === true);
    return {
      conversationId,
      level,
      summary: built.summary,
      generatedAt: built.generatedAt,
      windowStart: iso(endMs - plan.spanMs),
      windowEnd: iso(endMs),
      anchoredOn,
      sourceCount: built.sourceCount,
      wordCount: built.summary.match(/\S+/g)?.length ?? 0,
      model: built.model,
      cached: built.cached,
      ...(built.sourceCount === 0
        ? { note: conversation.messageCount === 0
          ? 'The conversation has no messages yet, so there is nothing to summarize.'
          : `No messages in this ${level} window.` }
        : {}),
    };
  }

  /** The summary of (endMs - span, endMs], from the store when its source is unchanged. */
  private async build(conversationId: string, level: SummaryLevel, endMs: number, refresh: boolean): Promise<Built> {
    const plan = SUMMARY_LEVELS[level];
    const startMs = endMs - plan.spanMs;
    let sourceHash: string;
    let sourceCount: number;
    const parts: Built[] = [];
    if (plan.parts) {
      const partSpan = SUMMARY_LEVELS[plan.parts.level].spanMs;
      for (let i = 1; i <= plan.parts.count; i += 1) {
        parts.push(await this.build(conversationId, plan.parts.level, startMs + i * partSpan, refresh));
      }
      sourceCount = parts.reduce((sum, part) => sum + part.sourceCount, 0);
      sourceHash = hash(`${level}|${parts.map((part) => part.sourceHash).join(',')}`);
    } else {
      const keys = await this.deps.summaries.messageKeysInWindow(conversationId, iso(startMs), iso(endMs));
      sourceCount = keys.length;
      sourceHash = hash(`${level}|${keys.join(',')}`);
    }
    const generatedAt = this.deps.clock.now().toISOString();
    if (sourceCount === 0) {
      return { summary: '', model: null, sourceHash: EMPTY_HASH, sourceCount: 0, generatedAt, cached: false };
    }
    if (!refresh) {
      const stored = await this.deps.summaries.find(conversationId, level, sourceHash);
      if (stored) {
        return { summary: stored.summary, model: stored.model, sourceHash, sourceCount, generatedAt: stored.generatedAt, cached: true };
      }
    }

    const texts = plan.parts
      ? parts.map((part) => part.summary).filter((summary) => summary.trim() !== '')
      : await this.sourceTexts(conversationId, iso(startMs), iso(endMs));
    let result: { summary: string; model: string };
    try {
      result = await this.deps.language.summarize(texts, plan.targetWords);
    } catch (error) {
      if (error instanceof UpstreamError) {
        throw new UnavailableError(ErrorCode.UPSTREAM_UNAVAILABLE, `Summaries are unavailable: ${error.message}`,
          error.retryable, { cause: error });
      }
      throw error;
    }
    await this.deps.summaries.save({
      conversationId, level, sourceHash, sourceCount,
      windowStart: iso(startMs), windowEnd: iso(endMs),
      summary: result.summary, model: result.model, generatedAt,
    }, this.limits.keepPerLevel);
    return { summary: result.summary, model: result.model, sourceHash, sourceCount, generatedAt, cached: false };
  }

  /** The window's messages, newest kept when over the limits, in time order. */
  private async sourceTexts(conversationId: string, start: string, end: string): Promise<string[]> {
    const messages = await this.deps.summaries.messagesInWindow(conversationId, start, end, this.limits.maxSourceMessages);
    const texts: string[] = [];
    let budget = this.limits.maxSourceChars;
    for (let i = messages.length - 1; i >= 0 && budget > 0; i -= 1) {
      const text = messages[i]!.content.slice(0, Math.min(budget, MAX_BRIDGE_TEXT_CHARS));
      budget -= text.length;
      texts.push(text);
    }
    return texts.reverse();
  }
}

/** The bridge refuses longer passages. */
const MAX_BRIDGE_TEXT_CHARS = 100_000;

const iso = (ms: number) => new Date(ms).toISOString();
const hash = (text: string) => createHash('sha256').update(text).digest('hex').slice(0, 32);
