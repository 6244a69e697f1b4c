import { ConversationNotFoundError } from '../../domain/errors.js';
import { isUuid } from '../../domain/ids.js';
import type { Clock } from '../../ports/clock.js';
import type { ConversationStore } from '../../ports/conversation-store.js';
import type { PruningReader } from '../../ports/pruning-reader.js';

const DAY_MS = 86_400_000;
export const DEFAULT_THRESHOLD_DAYS = 30;
export const DEFAULT_IMPORTANCE_THRESHOLD = 5.0;
export const DEFAULT_SUGGESTION_LIMIT = 1000;

export interface PruningSuggestion {
  conversationId: string;
  conversationLabel: string;
  lastAccessed: string;
  lastUpdated: string;
  messageCount: number;
  tokenEstimate: number;
  importanceScore: number;
  preview: string;
  recommendation: 'archive' | 'keep';
  reason: string;
}

export interface PruningPlan {
  thresholdDays: number;
  importanceThreshold: number;
  idleSince: string;
  suggestions: PruningSuggestion[];
  total: number;
  archiveCount: number;
  estimatedTokenSavings: number;
}

export interface PruningServiceDeps {
  conversations: ConversationStore;
  reader: PruningReader;
  clock: Clock;
  /** Settles once the reads already answered have their access stored (ConversationService.accessesRecorded). */
  accessesRecorded: () => Promise<void>;
}

/**
 * Suggests conversations to archive and archives them. A conversation is
 * suggested when it is active, not pinned, and idle: neither read (last
 * access) nor changed (updated_at: messages, label, folder, importance) for
 * `thresholdDays`. An idle one with importance <= `importanceThreshold` is
 * recommended for archiving; a more important one is listed as `keep`.
 */
export class PruningService {
  constructor(private readonly deps: PruningServiceDeps) {}

  async dryRun(options: { thresholdDays?: number; importanceThreshold?: number; limit?: number } = {}): Promise<PruningPlan> {
    const thresholdDays = options.thresholdDays ?? DEFAULT_THRESHOLD_DAYS;
    const importanceThreshold = options.importanceThreshold ?? DEFAULT_IMPORTANCE_THRESHOLD;
    const idleSince = new Date(this.deps.clock.now().getTime() - thresholdDays * DAY_MS).toISOString();
    // A conversation a client has just read is not idle, even if its access is still on its way to the store.
    await this.deps.accessesRecorded();
    const { items, total, archivable } = await this.deps.reader.idleConversations({
      idleBefore: idleSince, importanceThreshold, limit: options.limit ?? DEFAULT_SUGGESTION_LIMIT,
    });
    const suggestions = items.map((item): PruningSuggestion => {
      const archive = item.importanceScore <= importanceThreshold;
      return {
        conversationId: item.id,
        conversationLabel: item.label,
        lastAccessed: item.lastAccessedAt,
        lastUpdated: item.updatedAt,
        messageCount: item.messageCount,
        tokenEstimate: Math.ceil(item.contentChars / 4),
        importanceScore: item.importanceScore,
        preview: item.preview,
        recommendation: archive ? 'archive' : 'keep',
        reason: `Not read or changed for over ${thresholdDays} days; importance ${item.importanceScore} is ` +
          (archive ? `at most ${importanceThreshold}` : `above ${importanceThreshold}`),
      };
    });
    return {
      thresholdDays,
      importanceThreshold,
      idleSince,
      suggestions,
      total,
      archiveCount: archivable,
      estimatedTokenSavings: suggestions.filter((s) => s.recommendation === 'archive')
        .reduce((sum, s) => sum + s.tokenEstimate, 0),
    };
  }

  /** Archives every id or, when any is unknown (or malformed), none: one transaction. */
  async execute(ids: readonly string[]): Promise<void> {
    const malformed = ids.find((id) => !isUuid(id));
    if (malformed !== undefined) throw new ConversationNotFoundError(malformed);
    const unknown = await this.deps.conversations.setStatusMany([...new Set(ids)], 'archived',
      this.deps.clock.now().toISOString());
    if (unknown.length > 0) throw new ConversationNotFoundError(unknown[0]!);
  }
}
