import type { ScoredKey } from '../domain/search.js';

/**
 * Share of a session's evidence passed on to each of its turns. A session
 * (one conversation: a sitting, a day's chat) that holds several good matches
 * is probably about what the question asks, so its other turns become likelier
 * answers too; this lifts the second evidence turn of a multi-hop question
 * that shares no words with the question but sits next to ones that do.
 */
export const SESSION_WEIGHT = 0.15;

/** How many of a session's best turns make up its score (the rest are noise in long sessions). */
export const SESSION_TOP_TURNS = 3;

/**
 * score(turn) + weight * sessionScore / bestSessionScore, where a session's
 * score is the sum of its `topTurns` best turn scores in the ranking. Rescaled
 * to 0..1 by the best, sorted best first; ties keep the input order.
 * `sessionOf` returns the session (conversation) id of a ranked key.
 */
export function passSessionEvidence(
  ranking: readonly ScoredKey[],
  sessionOf: (key: number) => string | undefined,
  weight: number = SESSION_WEIGHT,
  topTurns: number = SESSION_TOP_TURNS,
): ScoredKey[] {
  if (weight <= 0 || ranking.length === 0) return [...ranking];
  const best = new Map<string, number[]>();
  for (const item of ranking) {
    const session = sessionOf(item.key);
    if (session === undefined) continue;
    const scores = best.get(session) ?? [];
    if (scores.length < topTurns) scores.push(item.score);
    best.set(session, scores);
  }
  const sessionScore = new Map<string, number>();
  let top = 0;
  for (const [session, scores] of best) {
    const sum = scores.reduce((total, score) => total + score, 0);
    sessionScore.set(session, sum);
    top = Math.max(top, sum);
  }
  const rescored = ranking.map((item, order) => {
    const session = sessionOf(item.key);
    const bonus = session === undefined || top <= 0 ? 0 : (sessionScore.get(session)! / top);
    return { key: item.key, score: item.score + weight * bonus, order };
  });
  const max = rescored.reduce((value, item) => Math.max(value, item.score), 0);
  return rescored
    .sort((a, b) => b.score - a.score || a.order - b.order)
    .map((item) => ({ key: item.key, score: max > 0 ? item.score / max : 0 }));
}
