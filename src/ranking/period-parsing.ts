/**
 * Reading the periods a question names, with chrono-node. Apart from time-mention.ts because chrono-node costs the
 * thread that loads it 0.25 s to import and 0.4-1.2 s to warm (slow machine): the service loads it only on its
 * parsing thread (adapters/date-parsing).
 */
import * as chrono from 'chrono-node';
import { mayNamePeriod, type NamedPeriod } from './time-mention.js';
import type { PeriodReader } from '../ports/period-reader.js';

/**
 * The calendar periods a query names down to the month at least, read by
 * chrono-node: "in June", "July 2023", "on 13 October"; relative ones such as
 * "last week" resolve against `now`. Coarser ones ("last year", "on Friday")
 * are left out: they say too little about when a stored message was written.
 */
export function namedPeriods(query: string, now: Date = new Date()): NamedPeriod[] {
  return mayNamePeriod(query) ? parsePeriods(query, now) : [];
}

/**
 * Pays chrono-node's set-up cost now: its first parses cost up to half a second of the calling thread. Twice: V8
 * interprets a regular expression's first run and compiles it on the second, and that second parse is the dear one
 * (40-50 ms, then 170-300 ms, then under 1 ms in a fresh process). The service parses on a thread of its own
 * (adapters/date-parsing), which warms itself so: on the request thread this cost 0.4-1.2 s before listening.
 */
export function warmUpDateParsing(now: Date = new Date()): void {
  for (let parse = 0; parse < 2; parse += 1) parsePeriods('what happened on 3 May 2023 and last week', now);
}

/** Parses on the calling thread: for tests, scripts and services built without the parsing thread. */
export const periodsReadHere: PeriodReader = { namedPeriods: async (query, now) => namedPeriods(query, now) };

/** namedPeriods without the mayNamePeriod shortcut (exported for its test). */
export function parsePeriods(query: string, now: Date): NamedPeriod[] {
  return chrono.parse(query, now)
    .filter((result) => result.start.isCertain('month'))
    .map((result) => ({
      month: result.start.get('month')! - 1,
      ...(result.start.isCertain('year') ? { year: result.start.get('year')! } : {}),
      ...(result.start.isCertain('day') ? { day: result.start.get('day')! } : {}),
    }));
}
