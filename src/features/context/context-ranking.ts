import { SESSION_TOP_TURNS } from '../../ranking/session-evidence.js';
import { TIME_WEIGHT } from '../../ranking/time-mention.js';

/**
 * Scoring of recalled messages for context assembly. Pure: the clock, the
 * candidates and the weights come in as arguments.
 */

export const CONTEXT_RANKINGS = ['relevance', 'spec'] as const;
export type ContextRanking = (typeof CONTEXT_RANKINGS)[number];

/** Recency halves every 7 days. */
export const RECENCY_HALF_LIFE_MS = 7 * 24 * 60 * 60 * 1000;

/** The spec's formula: `0.5*importance + 0.3*recency + 0.2*label_match`; no term for the query. */
export const SPEC_WEIGHTS = { importance: 0.5, recency: 0.3, label: 0.2 } as const;

export interface RelevanceTuning {
  /** Weights of the final score; they sum to 1 so the score stays in 0..1. */
  relevance: number;
  importance: number;
  recency: number;
  label: number;
  /** Share of query relevance from full-text (BM25); the rest from vectors (cosine). */
  keywordShare: number;
  /** Share of each adjacent message's relevance added to a message (answers often sit in the next turn). */
  neighbourWeight: number;
  /** Relevance bonus, x(1 + w), for messages whose author the query names (see search/ranking/author-match.ts). */
  authorWeight: number;
  /** Share of its session's best relevance each message gains (see search/ranking/session-evidence.ts). */
  sessionWeight: number;
  /** Relevance bonus, x(1 + w), for messages written in a period the query names (see search/ranking/time-mention.ts). */
  timeWeight: number;
  /**
   * Added to the relevance of messages whose author the query names, after neighbours and sessions (0: off).
   * "What does Melanie do to destress?" is answered by Melanie's own turns, often in words the question
   * does not use, so the multiplier above (authorWeight) has nothing to multiply; this ranks her turns above
   * the other speakers' equally unmatched ones.
   */
  authorPrior: number;
}

/**
 * The default ranking. Chosen on the LoCoMo dev set with
 * scripts/locomo-context-eval.ts --tune (see README, "Context assembly").
 */
export const DEFAULT_TUNING: Readonly<RelevanceTuning> = Object.freeze({
  relevance: 0.8,
  importance: 0.05,
  recency: 0.05,
  label: 0.1,
  keywordShare: 0.7,
  neighbourWeight: 0.3,
  authorWeight: 0.5,
  sessionWeight: 1,
  timeWeight: TIME_WEIGHT,
  authorPrior: 0.8,
});

/** The ranking before named authors and session evidence (context_refinement: false). */
export const UNREFINED_TUNING: Readonly<RelevanceTuning> = Object.freeze({
  ...DEFAULT_TUNING, authorWeight: 0, sessionWeight: 0, timeWeight: 0, authorPrior: 0,
});

export interface RankingCandidate {
  /** The message id: ties break on it, ascending. */
  id: string;
  key: number;
  /** Conversation importance, 1..10. */
  importance: number;
  timestamp: string;
  label: string;
  /** Full-text relevance scaled by the best match, 0..1; 0 when not matched. */
  keyword: number;
  /** Cosine similarity, 0..1; 0 when not matched. */
  semantic: number;
  /** Keys of the messages directly before and after, in the same conversation. */
  neighbours: readonly number[];
  /** Whether the query names the message's author; absent: no. */
  namedAuthor?: boolean;
  /** Whether the message was written in a period the query names; absent: no. */
  namedPeriod?: boolean;
  /** The message's session (conversation id); absent: no session evidence. */
  session?: string;
}

export interface RankedCandidate<T extends RankingCandidate = RankingCandidate> {
  candidate: T;
  /** Final score, 0..1. */
  score: number;
}

export interface RankingContext {
  now: Date;
  preferredLabels: readonly string[];
}

/** Importance 1..10 mapped linearly onto 0..1 (1 -> 0, 10 -> 1). */
export const normalizedImportance = (importance: number): number => (Math.min(10, Math.max(1, importance)) - 1) / 9;

/** 2^(-age / half-life); a timestamp in the future counts as now, an unparseable one as infinitely old. */
export function recency(timestamp: string, now: Date, halfLifeMs: number = RECENCY_HALF_LIFE_MS): number {
  const time = Date.parse(timestamp);
  if (Number.isNaN(time)) return 0;
  const age = Math.max(0, now.getTime() - time);
  return Math.pow(0.5, age / halfLifeMs);
}

/** Labels compare trimmed and case-insensitively. */
export const labelKey = (label: string): string => label.trim().toLowerCase();

export function labelMatcher(preferred: readonly string[]): (label: string) => number {
  const wanted = new Set(preferred.map(labelKey));
  return (label) => (wanted.has(labelKey(label)) ? 1 : 0);
}

export function specScore(candidate: RankingCandidate, context: RankingContext, match = labelMatcher(context.preferredLabels)): number {
  return SPEC_WEIGHTS.importance * normalizedImportance(candidate.importance)
    + SPEC_WEIGHTS.recency * recency(candidate.timestamp, context.now)
    + SPEC_WEIGHTS.label * match(candidate.label);
}

/**
 * Query relevance per candidate key, 0..1: full-text and vector scores mixed by
 * `keywordShare` (vectors scaled by the best one), then each message gains
 * `neighbourWeight` times the relevance of its neighbours, `sessionWeight` times
 * its session's evidence and, when the query names its author, `authorPrior`;
 * rescaled by the best.
 */
export type RelevanceSignals = Pick<RankingCandidate, 'key' | 'keyword' | 'semantic' | 'neighbours' | 'namedAuthor' | 'namedPeriod' | 'session'>;

export function queryRelevance(candidates: readonly RelevanceSignals[], tuning: RelevanceTuning): Map<number, number> {
  let bestSemantic = 0;
  for (const candidate of candidates) bestSemantic = Math.max(bestSemantic, candidate.semantic);
  const direct = new Map<number, number>();
  for (const candidate of candidates) {
    const semantic = bestSemantic > 0 ? candidate.semantic / bestSemantic : 0;
    const bonus = (candidate.namedAuthor ? 1 + (tuning.authorWeight ?? 0) : 1)
      * (candidate.namedPeriod ? 1 + (tuning.timeWeight ?? 0) : 1);
    direct.set(candidate.key, bonus * (tuning.keywordShare * candidate.keyword + (1 - tuning.keywordShare) * semantic));
  }
  const propagated = new Map<number, number>();
  let best = 0;
  for (const candidate of candidates) {
    let around = 0;
    for (const neighbour of candidate.neighbours) around += direct.get(neighbour) ?? 0;
    propagated.set(candidate.key, direct.get(candidate.key)! + tuning.neighbourWeight * around);
  }
  const sessionWeight = tuning.sessionWeight ?? 0;
  const sessions = sessionWeight > 0 ? sessionEvidence(candidates, propagated) : null;
  for (const candidate of candidates) {
    let value = propagated.get(candidate.key)!;
    if (sessions && candidate.session !== undefined) value += sessionWeight * (sessions.get(candidate.session) ?? 0);
    if (candidate.namedAuthor) value += tuning.authorPrior ?? 0;
    propagated.set(candidate.key, value);
    best = Math.max(best, value);
  }
  for (const [key, value] of propagated) propagated.set(key, best > 0 ? value / best : 0);
  return propagated;
}

/** Per session, the sum of its SESSION_TOP_TURNS best relevances, scaled by the best session's. */
function sessionEvidence(candidates: readonly RelevanceSignals[], relevance: ReadonlyMap<number, number>): Map<string, number> {
  const bySession = new Map<string, number[]>();
  for (const candidate of candidates) {
    if (candidate.session === undefined) continue;
    const list = bySession.get(candidate.session) ?? [];
    list.push(relevance.get(candidate.key) ?? 0);
    bySession.set(candidate.session, list);
  }
  const scores = new Map<string, number>();
  let best = 0;
  for (const [session, values] of bySession) {
    const score = values.sort((a, b) => b - a).slice(0, SESSION_TOP_TURNS).reduce((sum, value) => sum + value, 0);
    scores.set(session, score);
    best = Math.max(best, score);
  }
  for (const [session, score] of scores) scores.set(session, best > 0 ? score / best : 0);
  return scores;
}

/** Scores and sorts candidates, best first; equal scores order by message id. */
export function rankCandidates<T extends RankingCandidate>(
  candidates: readonly T[],
  ranking: ContextRanking,
  context: RankingContext,
  tuning: RelevanceTuning = DEFAULT_TUNING,
): Array<RankedCandidate<T>> {
  const match = labelMatcher(context.preferredLabels);
  let ranked: Array<RankedCandidate<T>>;
  if (ranking === 'spec') {
    ranked = candidates.map((candidate) => ({ candidate, score: specScore(candidate, context, match) }));
  } else {
    const relevance = queryRelevance(candidates, tuning);
    ranked = candidates.map((candidate) => ({
      candidate,
      score: tuning.relevance * relevance.get(candidate.key)!
        + tuning.importance * normalizedImportance(candidate.importance)
        + tuning.recency * recency(candidate.timestamp, context.now)
        + tuning.label * match(candidate.label),
    }));
  }
  return ranked.sort((a, b) => b.score - a.score || compareIds(a.candidate.id, b.candidate.id));
}

const compareIds = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
