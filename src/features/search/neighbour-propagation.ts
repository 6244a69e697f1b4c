import type { RankedHit } from './hybrid-fusion.js';

/**
 * Share of each adjacent message's score added to a message. In conversations
 * the answer often sits in the reply right after the message that shares the
 * question's words ("What did you take away from it?" -> "It taught me ...").
 * Chosen on the LoCoMo dev set (bench/NOTES.md, "Settled by probes since deleted").
 */
export const NEIGHBOUR_WEIGHT = 0.3;

/**
 * Re-scores fused hits: score(m) + weight * (score(previous) + score(next)),
 * then rescales to 0..1. Neighbours of hits that were not hits themselves join
 * the list, scored from their neighbours alone. `neighboursOf` must return the
 * ids of the messages directly before and after `id` in the same conversation.
 */
export function propagateNeighbourScores(
  hits: readonly RankedHit[],
  neighboursOf: (id: string) => readonly string[],
  weight: number = NEIGHBOUR_WEIGHT,
): RankedHit[] {
  const scores = new Map<string, number>();
  for (const hit of hits) if (!scores.has(hit.id)) scores.set(hit.id, hit.score);
  const candidates = new Set(scores.keys());
  for (const id of scores.keys()) for (const neighbour of neighboursOf(id)) candidates.add(neighbour);
  const propagated: RankedHit[] = [];
  for (const id of candidates) {
    let neighbourSum = 0;
    for (const neighbour of neighboursOf(id)) neighbourSum += scores.get(neighbour) ?? 0;
    propagated.push({ id, score: (scores.get(id) ?? 0) + weight * neighbourSum });
  }
  const max = propagated.reduce((best, hit) => Math.max(best, hit.score), 0);
  return propagated
    .map((hit) => ({ id: hit.id, score: max > 0 ? hit.score / max : 0 }))
    .sort((a, b) => b.score - a.score || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
}
