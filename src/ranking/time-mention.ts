import * as chrono from 'chrono-node';
import type { ScoredKey } from '../domain/search.js';

/**
 * Score bonus, x(1 + weight), for messages written in the period a query names
 * ("in June", "in July 2023", "on 13 October"). Words cannot find these: the
 * message says "we went camping last weekend", its timestamp says June.
 */
export const TIME_WEIGHT = 1;
/**
 * How long after a named period a message still counts as written about it:
 * people tell of what they did in the days and weeks after.
 */
export const MENTION_SLACK_MS = 14 * 24 * 60 * 60 * 1000;

const DAY_MS = 24 * 60 * 60 * 1000;

/** A calendar period named in a query; no year means that month (or day) of any year. */
export interface NamedPeriod {
  /** 0..11 */
  month: number;
  year?: number;
  day?: number;
}

/**
 * Words without which chrono-node finds no date (with any digit): month and weekday names and their short forms,
 * the casual words (today, tonight, yesterday, this morning...) and time units (3 days ago, last week, next month).
 * Most questions have none, and they skip the parse: in a busy service V8 drops the compiled code of chrono's
 * hundred-odd regular expressions between calls, so a parse costs ~12 ms, not 0.05 ms. Whole words: a word that only
 * begins like one (marathon, sunrise, friends, decided, married) sent 261 of LoCoMo's 999 questions to the parser,
 * 146 of them naming no period; whole words send 154, and all 115 that name one (and all 366 of its 2,904 turns that
 * do). "last", "next", "this" are left out: chrono reads no period from them without a unit or a name after them.
 */
const DATE_WORDS = new Set([
  'jan', 'january', 'feb', 'february', 'mar', 'march', 'apr', 'april', 'may', 'jun', 'june', 'jul', 'july', 'aug',
  'august', 'sep', 'sept', 'september', 'oct', 'october', 'nov', 'november', 'dec', 'december',
  'mon', 'monday', 'tue', 'tues', 'tuesday', 'wed', 'weds', 'wednesday', 'thu', 'thur', 'thurs', 'thursday', 'fri',
  'friday', 'sat', 'saturday', 'sun', 'sunday',
  'now', 'today', 'tonight', 'tomorrow', 'tmr', 'yesterday', 'morning', 'afternoon', 'evening', 'night', 'noon',
  'midnight', 'midday', 'ago',
  'sec', 'secs', 'second', 'seconds', 'min', 'mins', 'minute', 'minutes', 'hr', 'hrs', 'hour', 'hours', 'day', 'days',
  'week', 'weeks', 'weekend', 'weekends', 'wk', 'wks', 'fortnight', 'fortnights', 'mo', 'mos', 'month', 'months', 'qtr',
  'quarter', 'quarters', 'yr', 'yrs', 'year', 'years', 'decade', 'decades',
]);

/** Whether `query` has a word chrono-node needs to find a date in it (see DATE_WORDS). */
export function mayNamePeriod(query: string): boolean {
  if (/\d/.test(query)) return true;
  return query.toLowerCase().split(/[^a-z]+/).some((word) => DATE_WORDS.has(word));
}

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
 * (40-50 ms, then 170-300 ms, then under 1 ms in a fresh process; one parse at start-up had left 220-350 ms of
 * event-loop stall to the first dated question, which admission control can read as overload).
 */
export function warmUpDateParsing(now: Date = new Date()): void {
  for (let parse = 0; parse < 2; parse += 1) parsePeriods('what happened on 3 May 2023 and last week', now);
}

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

/** Whether `time` (ms since epoch, UTC) falls in `period` or up to `slackMs` after it. */
export function writtenDuring(time: number, period: NamedPeriod, slackMs: number = MENTION_SLACK_MS): boolean {
  if (Number.isNaN(time)) return false;
  const year = new Date(time).getUTCFullYear();
  // Without a year, the period of the message's own year or, within the slack, the previous one (December -> January).
  const years = period.year !== undefined ? [period.year] : [year, year - 1];
  return years.some((candidate) => {
    const start = Date.UTC(candidate, period.month, period.day ?? 1);
    const end = period.day !== undefined ? start + DAY_MS : Date.UTC(candidate, period.month + 1, 1);
    return time >= start && time < end + slackMs;
  });
}

/** A predicate telling whether a timestamp lies in any period the query names; null when it names none. */
export function periodMatcher(query: string, now: Date = new Date(), slackMs: number = MENTION_SLACK_MS):
  ((timestamp: string) => boolean) | null {
  const periods = namedPeriods(query, now);
  if (periods.length === 0) return null;
  return (timestamp) => {
    const time = Date.parse(timestamp);
    return periods.some((period) => writtenDuring(time, period, slackMs));
  };
}

/**
 * score * (1 + weight) for messages written in a period the query names, then
 * rescaled to 0..1 and sorted best first; ties keep the input order. Does
 * nothing when the query names no period or weight is 0.
 */
export function favourNamedPeriods(
  query: string,
  ranking: readonly ScoredKey[],
  timestampOf: (key: number) => string | undefined,
  weight: number = TIME_WEIGHT,
  now: Date = new Date(),
): ScoredKey[] {
  const matches = weight > 0 ? periodMatcher(query, now) : null;
  if (!matches) return [...ranking];
  const rescored = ranking.map((item, order) => {
    const timestamp = timestampOf(item.key);
    return { key: item.key, score: item.score * (timestamp !== undefined && matches(timestamp) ? 1 + weight : 1), order };
  });
  const max = rescored.reduce((value, item) => Math.max(value, item.score), 0);
  return rescored
    .sort((a, b) => b.score - a.score || a.order - b.order)
    .map((item) => ({ key: item.key, score: max > 0 ? item.score / max : 0 }));
}
