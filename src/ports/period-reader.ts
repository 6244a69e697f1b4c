import type { NamedPeriod } from '../ranking/time-mention.js';

/** Reads the calendar periods a question names ("in June", "last week"), for ranking's bonus to what was written then. */
export interface PeriodReader {
  /** Resolves relative periods against `now`. Never rejects: a question it cannot read names no period. */
  namedPeriods(query: string, now: Date): Promise<NamedPeriod[]>;
}
