import type { MessageHit } from '../../domain/search.js';
import { CHARS_PER_TOKEN, codePoints, estimateTokens } from '../../domain/token-count.js';
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
  /** 'text' packs the rendered context (headers and separators included), 'messages' the contents. */
  format: 'messages' | 'text';
  includeMetadata: boolean;
  tuning?: RelevanceTuning;
}

export interface SelectedMessage {
  hit: MessageHit;
  score: number;
}

export interface Selection {
  /** Best first. */
  messages: SelectedMessage[];
  /** Tokens the selected messages take: their contents, or the text form's whole string. */
  tokens: number;
  /** Tokens available after the reserve. */
  capacity: number;
}

/** Between the groups of the text form (and between its messages without metadata). */
export const BLOCK_SEPARATOR = '\n\n';
/** Between the messages of one group. */
export const LINE_SEPARATOR = '\n';

/** One message of the text form: who said it (role, and the author's name when it has one) and what. */
export function renderLine(hit: MessageHit): string {
  return `${hit.name ? `${hit.name} (${hit.role})` : hit.role}: ${hit.content}`;
}

const dayOf = (hit: MessageHit) => hit.timestamp.slice(0, 10);

/**
 * The text form with metadata cites label, folder and date once per group: one conversation's messages of
 * one (UTC) day. A header per message ([label | folder | timestamp | role], 19 tokens on LoCoMo) took a
 * third of a 4,000-token budget: 64 turns fitted where the messages form holds 105.
 */
export const groupOf = (hit: MessageHit): string => `${hit.conversationId} ${dayOf(hit)}`;

export const renderHeader = (hit: MessageHit): string => `[${hit.label} | ${hit.folder} | ${dayOf(hit)}]`;

/**
 * The order of the text form: without metadata best first; with it, by group, the group of the best message
 * first, each group's messages in conversation order (a dialogue reads in order).
 */
export function inContextOrder(messages: readonly SelectedMessage[], includeMetadata: boolean): SelectedMessage[] {
  if (!includeMetadata) return [...messages];
  return [...groupMessages(messages).values()].flat();
}

function groupMessages(messages: readonly SelectedMessage[]): Map<string, SelectedMessage[]> {
  const groups = new Map<string, SelectedMessage[]>();
  for (const message of messages) {
    const key = groupOf(message.hit);
    const list = groups.get(key);
    if (list) list.push(message);
    else groups.set(key, [message]);
  }
  for (const list of groups.values()) {
    list.sort((a, b) => a.hit.position - b.hit.position); // one conversation: positions are distinct
  }
  return groups;
}

/** The text form's string (see inContextOrder for its order). */
export function renderContext(messages: readonly SelectedMessage[], includeMetadata: boolean): string {
  if (!includeMetadata) return messages.map((message) => renderLine(message.hit)).join(BLOCK_SEPARATOR);
  return [...groupMessages(messages).values()]
    .map((group) => [renderHeader(group[0]!.hit), ...group.map((message) => renderLine(message.hit))].join(LINE_SEPARATOR))
    .join(BLOCK_SEPARATOR);
}

/** Ranks the candidates and packs the best into the budget less the reserve. */
export function selectContext(candidates: readonly ContextCandidate[], options: SelectionOptions): Selection {
  const ranked = rankCandidates(candidates, options.ranking,
    { now: options.now, preferredLabels: options.preferredLabels }, options.tuning ?? DEFAULT_TUNING);
  return packRanked(ranked, options);
}

/**
 * The packing half of selectContext, for callers that rank once and pack at several budgets.
 * The messages form charges each content its tokens. The text form is packed in characters, so the
 * whole string stays within the capacity: each message is charged its line and the separator before it,
 * and the message that opens a group its header and the blank line before that too (2 characters more
 * than the string holds, for the first group), so ceil(characters / 4) <= capacity.
 */
export function packRanked(ranked: ReadonlyArray<RankedCandidate<ContextCandidate>>,
  options: Pick<SelectionOptions, 'budget' | 'format' | 'includeMetadata'>): Selection {
  const capacity = availableTokens(options.budget);
  const dedupeKey = (item: RankedCandidate<ContextCandidate>) => contentKey(item.candidate.hit.content);
  const selected = (items: ReadonlyArray<RankedCandidate<ContextCandidate>>) =>
    items.map((item) => ({ hit: item.candidate.hit, score: clamp01(item.score) }));
  if (options.format === 'messages') {
    const packed = packGreedy(ranked, capacity, { cost: (item) => estimateTokens(item.candidate.hit.content), dedupeKey });
    return { messages: selected(packed.items), tokens: packed.tokens, capacity };
  }
  const packed = options.includeMetadata
    ? packGreedy(ranked, capacity * CHARS_PER_TOKEN, {
      cost: (item) => codePoints(renderLine(item.candidate.hit)) + LINE_SEPARATOR.length,
      dedupeKey,
      group: {
        key: (item) => groupOf(item.candidate.hit),
        cost: (item) => codePoints(renderHeader(item.candidate.hit)) + BLOCK_SEPARATOR.length,
      },
    })
    : packGreedy(ranked, capacity * CHARS_PER_TOKEN, {
      cost: (item) => codePoints(renderLine(item.candidate.hit)) + BLOCK_SEPARATOR.length, dedupeKey,
    });
  const messages = selected(packed.items);
  return { messages, tokens: estimateTokens(renderContext(messages, options.includeMetadata)), capacity };
}

const clamp01 = (value: number) => Math.min(1, Math.max(0, value));
