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

/** A predicate telling whether a timestamp lies in any of `periods`; null when there are none. */
export function periodMatcher(periods: readonly NamedPeriod[], slackMs: number = MENTION_SLACK_MS):
  ((timestamp: string) => boolean) | null {
  if (periods.length === 0) return null;
  return (timestamp) => {
    const time = Date.parse(timestamp);
    return periods.some((period) => writtenDuring(time, period, slackMs));
  };
}

/**
 * score * (1 + weight) for messages written in one of `periods` (those the query
 * names), then rescaled to 0..1 and sorted best first; ties keep the input order.
 * Does nothing when there are no periods or weight is 0.
 */
export function favourNamedPeriods(
  periods: readonly NamedPeriod[],
  ranking: readonly ScoredKey[],
  timestampOf: (key: number) => string | undefined,
  weight: number = TIME_WEIGHT,
): ScoredKey[] {
  const matches = weight > 0 ? periodMatcher(periods) : null;
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
