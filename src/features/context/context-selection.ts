import type { MessageHit } from '../../domain/search.js';
import { estimateTokens } from '../../domain/token-count.js';
import { availableTokens, contentKey, packGreedy } from './context-packing.js';
import {
  DEFAULT_TUNING, rankCandidates, type ContextRanking, type RankedCandidate, type RankingCandidate, type RelevanceTuning,
} from './context-ranking.js';

/** A recalled message with the signals the rankings use. */
export interface ContextCandidate extends RankingCandidate {
  hit: MessageHit;
}

export interface SelectionOptions {
  ranking: ContextRanking;
  now: Date;
  preferredLabels: readonly string[];
  /** The whole budget in tokens; the system-prompt reserve is taken off here. */
  budget: number;
  /** 'text' packs the rendered blocks (headers and separators included), 'messages' the contents. */
  format: 'messages' | 'text';
  includeMetadata: boolean;
  tuning?: RelevanceTuning;
}

export interface SelectedMessage {
  hit: MessageHit;
  score: number;
}

export interface Selection {
  messages: SelectedMessage[];
  /** Tokens the selected messages take, as packed. */
  tokens: number;
  /** Tokens available after the reserve. */
  capacity: number;
}

/** Between blocks of the text form. */
export const BLOCK_SEPARATOR = '\n\n';

/** One message of the text form, with a citation header when asked for. */
export function renderBlock(hit: MessageHit, includeMetadata: boolean): string {
  return includeMetadata
    ? `[${hit.label} | ${hit.folder} | ${hit.timestamp} | ${hit.role}]\n${hit.content}`
    : `${hit.role}: ${hit.content}`;
}

export const renderContext = (messages: readonly SelectedMessage[], includeMetadata: boolean): string =>
  messages.map((message) => renderBlock(message.hit, includeMetadata)).join(BLOCK_SEPARATOR);

/**
 * Ranks the candidates and packs the best into the budget less the reserve.
 * A text block is charged its separator too, so the whole string stays within
 * the capacity: sum(ceil(block/4) + 1) >= ceil((sum(block) + 2 * (n - 1)) / 4).
 */
export function selectContext(candidates: readonly ContextCandidate[], options: SelectionOptions): Selection {
  const ranked = rankCandidates(candidates, options.ranking,
    { now: options.now, preferredLabels: options.preferredLabels }, options.tuning ?? DEFAULT_TUNING);
  return packRanked(ranked, options);
}

/** The packing half of selectContext, for callers that rank once and pack at several budgets. */
export function packRanked(ranked: ReadonlyArray<RankedCandidate<ContextCandidate>>,
  options: Pick<SelectionOptions, 'budget' | 'format' | 'includeMetadata'>): Selection {
  const capacity = availableTokens(options.budget);
  const cost = options.format === 'text'
    ? (item: RankedCandidate<ContextCandidate>) => estimateTokens(renderBlock(item.candidate.hit, options.includeMetadata)) + 1
    : (item: RankedCandidate<ContextCandidate>) => estimateTokens(item.candidate.hit.content);
  const packed = packGreedy(ranked, capacity, { cost, dedupeKey: (item) => contentKey(item.candidate.hit.content) });
  return {
    messages: packed.items.map((item) => ({ hit: item.candidate.hit, score: clamp01(item.score) })),
    tokens: packed.tokens,
    capacity,
  };
}

const clamp01 = (value: number) => Math.min(1, Math.max(0, value));
