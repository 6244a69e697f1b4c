import type { Clock } from '../../ports/clock.js';
import type { Logger } from '../../ports/logger.js';
import { ErrorCode, UnavailableError, ValidationError } from '../../domain/errors.js';
import { normalizeFolder, type FolderLimits } from '../../domain/folder-path.js';
import { labelFilter } from '../../domain/label.js';
import type { MessageHit, ScoredKey, SearchFilter } from '../../domain/search.js';
import { parseTimestamp } from '../../domain/timestamp.js';
import { UpstreamError } from '../../domain/upstream-error.js';
import type { PeriodReader } from '../../ports/period-reader.js';
import type { QueryEmbedder } from '../../ports/query-embedder.js';
import { naturalLanguageQuery, parseFullTextQuery } from '../../domain/full-text-query.js';
import type { MessageSearchReader } from '../../ports/message-search.js';
import type { VectorSearch } from '../../ports/vector-search.js';
import { FTS_CONTEXT_WEIGHT, QUESTION_COMMON_SHARE } from './fts-query.js';
import { nextTurn } from '../next-turn.js';
import { fuseRankings } from './hybrid-fusion.js';
import { propagateNeighbourScores } from './neighbour-propagation.js';
import { DEFAULT_REFINEMENT, refineRanking, type Refinement } from './ranking/refine-ranking.js';
import type { SearchFilters, SearchMode } from './search.schemas.js';
import type { VectorIndexHolder } from '../../vector-index/vector-index.holder.js';

export interface SearchServiceDeps {
  /** The question's vector: in process for the builtin model, else from the bridge. */
  queries: QueryEmbedder;
  holder: VectorIndexHolder;
  vectors: VectorSearch;
  reader: MessageSearchReader;
  folderLimits: FolderLimits;
  maxResults: number;
  defaultMode: SearchMode;
  log: Logger;
  /** Hybrid mode's second stage (named authors, named periods, session evidence); defaults to DEFAULT_REFINEMENT. */
  refinement?: Refinement;
  /** Full text takes term rarity from the filtered scope, not the whole store (search.scoped_statistics); default true. */
  scopedStatistics?: boolean;
  /** "Now" for the periods a query names without a year; defaults to the system clock. */
  clock?: Clock;
  /** Reads the periods a question names (hybrid mode's time bonus). */
  periods: PeriodReader;
}

export interface QueryRequest {
  query: string;
  limit: number;
  offset: number;
  filters?: SearchFilters | null;
  mode?: SearchMode;
}

export interface ScoredHit extends MessageHit {
  score: number;
}

export interface QueryResult {
  hits: ScoredHit[];
  total: number;
  /** The mode that actually ran: hybrid degrades to keyword when vectors are unavailable. */
  mode: SearchMode;
  /** The vector index was still catching up after a start: semantic results may miss messages. */
  partial: boolean;
}

/** Finds messages by meaning (vectors), by words (the driver's full text, BM25) or both fused. */
export class SearchService {
  constructor(private readonly deps: SearchServiceDeps) {}

  async query(request: QueryRequest): Promise<QueryResult> {
    this.checkWindow(request.offset, request.limit);
    const filter = this.toFilter(request.filters);
    const mode = request.mode ?? this.deps.defaultMode;
    const depth = candidateDepth(request.offset + request.limit, this.deps.maxResults);
    let ranking: ScoredKey[];
    let ran: SearchMode = mode;
    let read = new Map<number, MessageHit>();
    if (mode === 'keyword') {
      ranking = await this.keywordRanking(request.query, filter, depth);
    } else if (mode === 'semantic') {
      ranking = await this.semanticRanking(request.query, filter, depth);
    } else {
      const refinement = this.deps.refinement ?? DEFAULT_REFINEMENT;
      // Read on the date-parsing thread while the search runs; settles with [] rather than rejecting.
      const pendingPeriods = refinement.timeWeight > 0
        ? this.deps.periods.namedPeriods(request.query, this.deps.clock?.now() ?? new Date())
        : Promise.resolve([]);
      // Semantic first: full text runs on this thread while the index thread searches (or the bridge embeds).
      const pendingDense = this.semanticRanking(request.query, filter, depth).catch((error: unknown) => {
        this.deps.log.warn({ err: error }, 'vector search unavailable; answering from full-text only');
        return null;
      });
      await nextTurn();
      const keyword = await this.keywordRanking(request.query, filter, depth);
      const dense = await pendingDense;
      if (dense === null) {
        ranking = keyword;
        ran = 'keyword';
      } else {
        ranking = await this.withNeighbours(fuseKeys(keyword, dense, depth), filter, depth);
        ({ ranking, hits: read } = await refineRanking(request.query, ranking, (keys) => this.deps.reader.hydrate(keys),
          refinement, await pendingPeriods));
      }
    }
    const page = ranking.slice(request.offset, request.offset + request.limit);
    const hits = page.every((item) => read.has(item.key))
      ? page.map((item) => read.get(item.key)!)
      : await this.deps.reader.hydrate(page.map((item) => item.key));
    const scores = new Map(page.map((item) => [item.key, item.score]));
    return {
      hits: hits.map((hit) => ({ ...hit, score: clamp01(scores.get(hit.key) ?? 0) })),
      total: ranking.length,
      mode: ran,
      partial: ran !== 'keyword' && this.deps.holder.partial(),
    };
  }

  /** The full-text syntax as the client wrote it: words, "phrases", prefix*, AND, OR, NOT, parentheses. */
  async fullText(request: { query: string; limit: number; offset: number; filters?: SearchFilters | null }) {
    this.checkWindow(request.offset, request.limit);
    const query = parseFullTextQuery(request.query);
    const ranking = scaleByBest(await this.deps.reader.fullText(query, this.toFilter(request.filters), this.deps.maxResults));
    const page = ranking.slice(request.offset, request.offset + request.limit);
    const hits = await this.deps.reader.hydrate(page.map((item) => item.key));
    const scores = new Map(page.map((item) => [item.key, item.score]));
    return { hits: hits.map((hit) => ({ ...hit, score: clamp01(scores.get(hit.key) ?? 0) })), total: ranking.length };
  }

  /**
   * BM25 over each message's words and, weighted lower, its neighbours' words;
   * under a filter, with the terms' rarity in the messages it admits.
   */
  async keywordRanking(query: string, filter: SearchFilter, depth: number): Promise<ScoredKey[]> {
    const words = naturalLanguageQuery(query);
    if (words === null) return [];
    return scaleByBest(await this.deps.reader.fullText(words, filter, depth,
      { contextWeight: FTS_CONTEXT_WEIGHT, scopedStatistics: this.deps.scopedStatistics ?? true, commonShare: QUESTION_COMMON_SHARE }));
  }

  /** Lets each message share in its neighbours' scores: answers often follow the turn that matched. */
  async withNeighbours(ranking: ScoredKey[], filter: SearchFilter, depth: number): Promise<ScoredKey[]> {
    const found = await this.deps.reader.neighbours(ranking.map((item) => item.key), filter);
    // Adjacency is symmetric, so one lookup also tells the neighbours of the messages it adds.
    const adjacency = new Map<string, string[]>();
    const link = (a: number, b: number) => {
      const list = adjacency.get(String(a));
      if (list) { if (!list.includes(String(b))) list.push(String(b)); } else adjacency.set(String(a), [String(b)]);
    };
    for (const [key, neighbours] of found) for (const neighbour of neighbours) { link(key, neighbour); link(neighbour, key); }
    return propagateNeighbourScores(toRanked(ranking), (id) => adjacency.get(id) ?? [])
      .slice(0, depth)
      .map(fromRanked);
  }

  /** Cosine similarity ranking; empty while nothing is embedded yet. */
  async semanticRanking(query: string, filter: SearchFilter, depth: number): Promise<ScoredKey[]> {
    await this.deps.holder.refresh();
    const { model, mismatch } = this.deps.holder.current();
    if (mismatch) throw modelChanged(mismatch.recorded.model, mismatch.current.model);
    // While the saved graph loads, a search would wait for it: answer without it (the response says partial).
    if (!model || this.deps.holder.loading()) return [];
    let batch;
    try {
      batch = await this.deps.queries.embedQuery(query, model.model);
    } catch (error) {
      if (error instanceof UpstreamError) {
        throw new UnavailableError(ErrorCode.UPSTREAM_UNAVAILABLE, `Semantic search is unavailable: ${error.message}`,
          error.retryable, { cause: error });
      }
      throw error;
    }
    if (batch.model !== model.model || batch.dimension !== model.dimension) throw modelChanged(model.model, batch.model);
    const vector = batch.vectors[0]!;
    const ranking = await this.deps.vectors.nearest(vector, filter, depth);
    return ranking.map((item) => ({ key: item.key, score: clamp01(item.score) }));
  }

  toFilter(filters: SearchFilters | null | undefined): SearchFilter {
    if (!filters) return {};
    const filter: SearchFilter = {};
    if (filters.folder !== undefined) filter.folder = normalizeFolder(filters.folder, this.deps.folderLimits, 'filters.folder');
    if (filters.label !== undefined) filter.label = labelFilter(filters.label, 'filters.label');
    if (filters.importance_min !== undefined) filter.importanceMin = filters.importance_min;
    if (filters.importance_max !== undefined) filter.importanceMax = filters.importance_max;
    if (filter.importanceMin !== undefined && filter.importanceMax !== undefined && filter.importanceMin > filter.importanceMax) {
      throw new ValidationError('filters.importance_min must not exceed filters.importance_max', ErrorCode.VALIDATION_ERROR, 'filters.importance_min');
    }
    if (filters.date_from !== undefined) filter.dateFrom = isoDate(filters.date_from, 'filters.date_from');
    if (filters.date_to !== undefined) filter.dateTo = isoDate(filters.date_to, 'filters.date_to');
    if (filter.dateFrom && filter.dateTo && filter.dateFrom > filter.dateTo) {
      throw new ValidationError('filters.date_from must not be after filters.date_to', ErrorCode.VALIDATION_ERROR, 'filters.date_from');
    }
    if (filters.archived !== undefined) filter.archived = filters.archived;
    return filter;
  }

  private checkWindow(offset: number, limit: number): void {
    if (limit > this.deps.maxResults) throw new ValidationError(`limit must be at most ${this.deps.maxResults}`, ErrorCode.VALIDATION_ERROR, 'limit');
    if (offset + limit > this.deps.maxResults) {
      throw new ValidationError(`offset + limit must be at most ${this.deps.maxResults}: results beyond are not ranked`, ErrorCode.VALIDATION_ERROR, 'offset');
    }
  }
}

const toRanked = (items: ScoredKey[]) => items.map((item) => ({ id: String(item.key), score: item.score }));
const fromRanked = (item: { id: string; score: number }): ScoredKey => ({ key: Number(item.id), score: item.score });

function fuseKeys(keyword: ScoredKey[], dense: ScoredKey[], depth: number): ScoredKey[] {
  return fuseRankings(toRanked(keyword), toRanked(dense), { limit: depth }).map(fromRanked);
}

/**
 * How many candidates each ranking contributes: enough for the requested page
 * and never fewer than 100, so fusion sees the strong candidates of both sides.
 */
export const MIN_CANDIDATES = 100;
const candidateDepth = (needed: number, max: number) => Math.min(max, Math.max(MIN_CANDIDATES, needed));

function scaleByBest(ranking: ScoredKey[]): ScoredKey[] {
  const best = ranking[0]?.score ?? 0;
  return ranking.map((item) => ({ key: item.key, score: best > 0 ? item.score / best : 0 }));
}

/** Not retryable: it lasts until someone rebuilds the embeddings. */
function modelChanged(recorded: string, current: string): UnavailableError {
  return new UnavailableError(ErrorCode.UPSTREAM_UNAVAILABLE,
    `Semantic search is unavailable: vectors were made with ${recorded} but the bridge now serves ${current}; ` +
    'run POST /api/v1/rebuild-embeddings', false);
}

function isoDate(value: string, field: string): string {
  const parsed = parseTimestamp(value);
  if (parsed === null) throw new ValidationError(`${field} is not an ISO 8601 date-time`, ErrorCode.VALIDATION_ERROR, field);
  return parsed;
}

const clamp01 = (value: number) => Math.min(1, Math.max(0, value));
