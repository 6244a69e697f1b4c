import type { MessageHit, ScoredKey } from '../../../domain/search.js';
import { AUTHOR_WEIGHT, favourNamedAuthors, messageAuthor } from '../../../ranking/author-match.js';
import { passSessionEvidence } from '../../../ranking/session-evidence.js';
import { favourNamedPeriods, TIME_WEIGHT, type NamedPeriod } from '../../../ranking/time-mention.js';

/** The second ranking stage after fusion and neighbour propagation; 0 switches a component off. */
export interface Refinement {
  /** Multiplier bonus for messages whose author (its name, else a leading "Name:") the query names. */
  authorWeight: number;
  /** Share of its session's (conversation's) best scores each message gains. */
  sessionWeight: number;
  /** Multiplier bonus for messages written in a period the query names ("in June", "on 3 May 2023"). */
  timeWeight: number;
}

/** Chosen with scripts/locomo-ablation.ts (docs/search.md). */
export const DEFAULT_REFINEMENT: Readonly<Refinement> = Object.freeze({
  authorWeight: AUTHOR_WEIGHT,
  // On top of named authors it did not win in every LoCoMo category for search (it does for context assembly).
  sessionWeight: 0,
  timeWeight: TIME_WEIGHT,
});

export interface RefinedRanking {
  ranking: ScoredKey[];
  /** The hits read to refine, by key, so the caller need not read the page again. */
  hits: Map<number, MessageHit>;
}

/**
 * Re-ranks a fused list with what the messages themselves say: who wrote them,
 * when (against `periods`, those the query names), and which session they belong
 * to. Reads the ranked messages once (every storage driver can hydrate keys), so
 * it works on any driver's ranking.
 */
export async function refineRanking(
  query: string,
  ranking: readonly ScoredKey[],
  hydrate: (keys: readonly number[]) => Promise<MessageHit[]>,
  refinement: Refinement = DEFAULT_REFINEMENT,
  periods: readonly NamedPeriod[] = [],
): Promise<RefinedRanking> {
  const hits = new Map<number, MessageHit>();
  if (ranking.length === 0 || (refinement.authorWeight <= 0 && refinement.sessionWeight <= 0 && refinement.timeWeight <= 0)) {
    return { ranking: [...ranking], hits };
  }
  for (const hit of await hydrate(ranking.map((item) => item.key))) hits.set(hit.key, hit);
  // Hydration skips messages deleted since ranking: drop them here too.
  let refined = ranking.filter((item) => hits.has(item.key));
  const authors = new Map<number, string | null>();
  refined = favourNamedAuthors(query, refined, (key) => {
    if (!authors.has(key)) authors.set(key, messageAuthor(hits.get(key)!));
    return authors.get(key);
  }, refinement.authorWeight);
  refined = favourNamedPeriods(periods, refined, (key) => hits.get(key)?.timestamp, refinement.timeWeight);
  refined = passSessionEvidence(refined, (key) => hits.get(key)?.conversationId, refinement.sessionWeight);
  return { ranking: refined, hits };
}
