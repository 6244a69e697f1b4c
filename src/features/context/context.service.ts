import type { MessageSearchReader } from '../../ports/message-search.js';
import { PINNED_IMPORTANCE } from '../../domain/conversation.js';
import { ErrorCode, UnavailableError, ValidationError } from '../../domain/errors.js';
import { isInFolder, normalizeFolder, type FolderLimits } from '../../domain/folder-path.js';
import type { MessageHit, ScoredKey, SearchFilter } from '../../domain/search.js';
import type { Clock } from '../../ports/clock.js';
import type { ContextReader } from '../../ports/context-reader.js';
import type { Logger } from '../../ports/logger.js';
import { messageAuthor, namesAuthor, queryWords } from '../../ranking/author-match.js';
import { periodMatcher } from '../../ranking/time-mention.js';
import type { PeriodReader } from '../../ports/period-reader.js';
import { DEFAULT_TUNING, queryRelevance, type ContextRanking, type RelevanceSignals, type RelevanceTuning } from './context-ranking.js';
import { nextTurn } from '../next-turn.js';
import { availableTokens } from './context-packing.js';
import { selectContext, type ContextCandidate, type Selection } from './context-selection.js';
import { DEFAULT_CONTEXT_BUDGET, type AssembleContextBody, type ContextFormat } from './context.schemas.js';

export { renderContext, type SelectedMessage } from './context-selection.js';
/** Same text up to case and spacing: assembly keeps one copy; a caller can leave out texts it already has. */
export { contentKey as sameTextKey } from './context-packing.js';

/** The rankings context assembly recalls from; the search service provides them. */
export interface RecallRankings {
  keywordRanking(query: string, filter: SearchFilter, depth: number): Promise<ScoredKey[]>;
  semanticRanking(query: string, filter: SearchFilter, depth: number): Promise<ScoredKey[]>;
}

/** The part of the search reader context assembly uses: hits by key, and adjacent turns. */
export type MessageHydrator = Pick<MessageSearchReader, 'hydrate' | 'neighbours'>;

export interface ContextServiceDeps {
  rankings: RecallRankings;
  reader: ContextReader;
  messages: MessageHydrator;
  clock: Clock;
  folderLimits: FolderLimits;
  log: Logger;
  /** Reads the periods a question names (the relevance ranking's time bonus). */
  periods: PeriodReader;
  /** The relevance ranking's weights; DEFAULT_TUNING when absent. */
  tuning?: RelevanceTuning;
}

/** How much each recall source contributes. */
export const CONTEXT_RECALL = Object.freeze({
  /** The spec's "top 200 semantic matches". */
  semantic: 200,
  /** relevance ranking only: full-text matches. */
  keyword: 200,
  /** Newest messages of pinned conversations (importance >= 10), at most; see FILL_TOKENS_PER_MESSAGE. */
  pinned: 1000,
  /** Newest messages of the last 7 days, at most; see FILL_TOKENS_PER_MESSAGE. */
  recent: 1000,
  recentWindowMs: 7 * 24 * 60 * 60 * 1000,
  /** relevance ranking only: the messages around this many best matches join the recall. */
  neighboursOf: 100,
});

/**
 * Pinned and recent messages fill what relevance leaves of the budget, so no more are recalled than the
 * budget could hold at this many tokens a message: 425 for 4,000 tokens. Recalling 1,000 of each for any
 * budget made most of context assembly's work (reading and ranking ~2,400 candidates) on a busy store.
 */
export const FILL_TOKENS_PER_MESSAGE = 8;

export interface AssembleRequest {
  query: string;
  preferredLabels: string[];
  budget: number;
  excludedFolders: string[];
  ranking: ContextRanking;
  format: ContextFormat;
  includeMetadata: boolean;
}

export interface AssembledContext extends Selection {
  request: AssembleRequest;
}

/** Builds a ranked, token-budgeted context for an LLM prompt out of stored messages. */
export class ContextService {
  constructor(private readonly deps: ContextServiceDeps) {}

  async assemble(body: AssembleContextBody, tuning: RelevanceTuning = this.deps.tuning ?? DEFAULT_TUNING): Promise<AssembledContext> {
    const request = this.toRequest(body);
    const candidates = await this.recall(request, tuning);
    const selection = selectContext(candidates, {
      ranking: request.ranking,
      now: this.deps.clock.now(),
      preferredLabels: request.preferredLabels,
      budget: request.budget,
      format: request.format,
      includeMetadata: request.includeMetadata,
      tuning,
    });
    return { ...selection, request };
  }

  /** Validates and normalizes a request body (defaults, folders, the text variant's names). */
  toRequest(body: AssembleContextBody): AssembleRequest {
    const query = body.query.trim();
    if (query === '') throw new ValidationError('query must not be blank', ErrorCode.VALIDATION_ERROR, 'query');
    if (body.context_budget !== undefined && body.max_tokens !== undefined) {
      throw new ValidationError('give either context_budget or max_tokens, not both', ErrorCode.VALIDATION_ERROR, 'max_tokens');
    }
    const excludedFolders = [...new Set((body.excluded_folders ?? []).map((folder, i) =>
      normalizeFolder(folder, this.deps.folderLimits, `excluded_folders[${i}]`)))];
    const preferredLabels = (body.preferred_labels ?? []).map((label) => label.trim());
    const blank = preferredLabels.findIndex((label) => label === '');
    if (blank >= 0) throw new ValidationError(`preferred_labels[${blank}] must not be blank`, ErrorCode.VALIDATION_ERROR, `preferred_labels[${blank}]`);
    return {
      query,
      preferredLabels,
      budget: body.context_budget ?? body.max_tokens ?? DEFAULT_CONTEXT_BUDGET,
      excludedFolders,
      ranking: body.ranking ?? 'relevance',
      format: body.format ?? (body.max_tokens !== undefined ? 'text' : 'messages'),
      includeMetadata: body.include_metadata ?? true,
    };
  }

  /**
   * Candidates from every recall source, outside excluded folders and archived conversations:
   * - spec: the top semantic matches, pinned conversations' messages and the last 7 days' messages;
   * - relevance: the same plus the top full-text matches and the turns next to the best matches.
   */
  async recall(request: AssembleRequest, tuning: RelevanceTuning = this.deps.tuning ?? DEFAULT_TUNING): Promise<ContextCandidate[]> {
    const { rankings, reader } = this.deps;
    const filter: SearchFilter = { archived: false };
    if (request.excludedFolders.length > 0) filter.excludedFolders = request.excludedFolders;
    const since = new Date(this.deps.clock.now().getTime() - CONTEXT_RECALL.recentWindowMs).toISOString();

    // Read on the date-parsing thread meanwhile; settles with [] rather than rejecting.
    const pendingPeriods = (tuning.timeWeight ?? 0) > 0
      ? this.deps.periods.namedPeriods(request.query, this.deps.clock.now())
      : Promise.resolve([]);
    // Semantic first: full text, pinned and recent recall run on this thread while the index thread searches
    // (or the bridge embeds the question).
    const pendingSemantic = this.semanticOrNothing(request.query, filter);
    // Handled here too, so a failure is not an unhandled rejection if another recall throws first.
    pendingSemantic.catch(() => undefined);
    await nextTurn();
    const fill = Math.ceil(availableTokens(request.budget) / FILL_TOKENS_PER_MESSAGE);
    // Together: a driver with a connection pool (PostgreSQL) runs them at once rather than one round trip after another.
    const [keyword, pinned, recent] = await Promise.all([
      request.ranking === 'relevance' ? rankings.keywordRanking(request.query, filter, CONTEXT_RECALL.keyword) : [],
      reader.pinnedMessageKeys(filter, PINNED_IMPORTANCE, Math.min(CONTEXT_RECALL.pinned, fill)),
      reader.recentMessageKeys(filter, since, Math.min(CONTEXT_RECALL.recent, fill)),
    ]);
    const semantic = await pendingSemantic;

    const keywordScores = new Map(keyword.map((item) => [item.key, item.score]));
    const semanticScores = new Map(semantic.map((item) => [item.key, item.score]));
    const keys = new Set<number>([...semantic, ...keyword].map((item) => item.key));
    for (const key of pinned) keys.add(key);
    for (const key of recent) keys.add(key);

    const neighbours = new Map<number, number[]>();
    if (request.ranking === 'relevance') {
      // The turns around the best direct matches: an answer often follows the message that shares the query's words.
      const direct = queryRelevance([...keys].map((key) => signals(key, keywordScores, semanticScores, [])),
        { ...tuning, neighbourWeight: 0 });
      const best = [...direct].filter(([, score]) => score > 0)
        .sort((a, b) => b[1] - a[1] || a[0] - b[0])
        .slice(0, CONTEXT_RECALL.neighboursOf)
        .map(([key]) => key);
      const matched = [...keys].filter((key) => keywordScores.has(key) || semanticScores.has(key));
      const adjacent = await this.deps.messages.neighbours(matched, filter);
      const link = (a: number, b: number) => {
        const list = neighbours.get(a) ?? [];
        if (!list.includes(b)) list.push(b);
        neighbours.set(a, list);
      };
      const joins = new Set(best);
      for (const [key, around] of adjacent) {
        for (const other of around) {
          if (!keys.has(other) && !joins.has(key)) continue;
          keys.add(other);
          link(key, other);
          link(other, key);
        }
      }
    }

    const ordered = [...keys].sort((a, b) => a - b);
    const hits = await this.deps.messages.hydrate(ordered);
    const words = queryWords(request.query);
    const inNamedPeriod = periodMatcher(await pendingPeriods);
    const named = new Map<string, boolean>();
    const namesAuthorOf = (hit: MessageHit) => {
      const author = messageAuthor(hit);
      if (author === null) return false;
      if (!named.has(author)) named.set(author, namesAuthor(words, author));
      return named.get(author)!;
    };
    return hits
      // Hydration does not filter: a message may have moved or been archived since recall.
      .filter((hit) => hit.status === 'active'
        && !request.excludedFolders.some((folder) => isInFolder(hit.folder, folder)))
      // One literal, not a spread of signals(): at 1,260 candidates a context, the spread's slow object
      // construction took 4.4 ms of a 40 ms assembly (1,070,000 messages, CPU profile).
      .map((hit) => ({
        key: hit.key,
        keyword: keywordScores.get(hit.key) ?? 0,
        semantic: semanticScores.get(hit.key) ?? 0,
        neighbours: neighbours.get(hit.key) ?? [],
        id: hit.messageId,
        importance: hit.importanceScore,
        timestamp: hit.timestamp,
        label: hit.label,
        namedAuthor: namesAuthorOf(hit),
        namedPeriod: inNamedPeriod?.(hit.timestamp) ?? false,
        session: hit.conversationId,
        hit,
      }));
  }

  /** Vectors may be unavailable (bridge down, model changed): assemble from the other sources then. */
  private async semanticOrNothing(query: string, filter: SearchFilter): Promise<ScoredKey[]> {
    try {
      return await this.deps.rankings.semanticRanking(query, filter, CONTEXT_RECALL.semantic);
    } catch (error) {
      if (!(error instanceof UnavailableError)) throw error;
      this.deps.log.warn({ err: error }, 'vector search unavailable; assembling context without semantic recall');
      return [];
    }
  }
}

function signals(key: number, keyword: Map<number, number>, semantic: Map<number, number>, neighbours: number[]):
  RelevanceSignals {
  return { key, keyword: keyword.get(key) ?? 0, semantic: semantic.get(key) ?? 0, neighbours };
}
