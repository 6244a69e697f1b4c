import type { NamedPeriod } from '../../ranking/time-mention.js';

/** A question for the parsing thread; `now` in ms since the epoch (relative periods resolve against it). */
export interface PeriodParsingRequest { id: number; query: string; now: number }

export type PeriodParsingReply =
  | { id: number; ok: true; periods: NamedPeriod[] }
  | { id: number; ok: false; error: string };
