import type { Database } from 'better-sqlite3';
import { ErrorCode, ValidationError } from '../../domain/errors.js';
import { plainWords, positiveTerms, type FullTextQuery } from '../../domain/full-text-query.js';
import type { MessageHit, ScoredKey, SearchFilter } from '../../domain/search.js';
import { toFts5Match } from './sqlite-fts-query.js';
import { allPhrases, DENSE_SCORE, densePhrases, isAnyOfPhrases, type Phrase } from './sqlite-dense-phrases.js';
import type { FullTextOptions, MessageSearchReader } from '../../ports/message-search.js';
import { hasFilter, searchFilterWhere } from '../sql/filter-sql.js';
import { bm25Idf, RATIO_TOLERANCE, rescoreForScope, type TermEvidence } from './scoped-term-statistics.js';
import { admittedKeys } from './sqlite-admitted-keys.js';
import { inKeys, keysParam, StatementCache } from './sqlite-statements.js';
import { UntilWriteMemo } from './until-write-memo.js';
import { groupNeighbours, HIT_COLUMNS, hitFromColumns, type HitColumns } from '../sql/rows.js';


/** With scoped statistics, how many store-wide candidates per requested result are re-ranked. */
const SCOPED_CANDIDATES_FACTOR = 3;

/**
 * A rowid bound for messages_fts. better-sqlite3 binds every JS number as a REAL, and FTS5 uses a rowid
 * bound only when it is an INTEGER: given a REAL, it walks the term's whole doclist and SQLite filters
 * the rows afterwards (54 ms against 1.6 ms to bound "the" to its newest 20,000 matches in a 1M-row table).
 */
const KEY_PARAM = 'CAST(? AS INTEGER)';

/** Under a filter, the best count x this matches are ranked before the filter is applied (see fullText). */
const FILTER_AFTER_FACTOR = 2;
/**
 * A filter admitting at most this many messages (a tenant's folder, a 1% folder filter) ranks its own matches:
 * its keys are read from the conversations' index, and the full-text index's matches are checked against them
 * as it walks them (about 9 ms at 100K for a question matching most of the store, against 100+ ms for ranking
 * every match and joining each to its conversation).
 */
const SMALL_SCOPE_ROWS = 20_000;

/** Small scopes whose keys are remembered at once (at most SMALL_SCOPE_ROWS keys each, about 150 KB as JSON). */
const SCOPE_KEY_LISTS = 16;

/** An AND or NOT with a dense phrase: candidates of its other phrases tried first, per requested result. */
const MEMBERSHIP_FACTOR = 4;

/**
 * Matches scored per full-text query at most (the newest ones). Scoring costs about 0.5 µs a match: "budget",
 * in 78,000 of 1,070,000 messages, took 23.9 ms (median, in process) with 20,000 and 15.8 ms with 10,000; the
 * rest is bm25() counting every match for the term's idf. `npm run bench -- scale` measures it over HTTP.
 */
export const FULL_TEXT_MAX_SCORED = 10_000;

export class SqliteMessageSearch implements MessageSearchReader {
  private readonly statements: StatementCache;

  /**
   * @param maxScored matches of one query scored at most: beyond it only the newest are ranked
   *   (BM25 over a word in a large share of the store ranks by little more than its frequency in each message).
   */
  private readonly scopeSizes: UntilWriteMemo<{ storeRows: number; scopeRows: number }>;
  /** Small scopes' keys (up to smallScopeRows each), a tenant's or a folder's that searches repeat. */
  private readonly scopeKeyLists: UntilWriteMemo<string>;

  constructor(db: Database, private readonly maxScored = FULL_TEXT_MAX_SCORED, private readonly smallScopeRows = SMALL_SCOPE_ROWS) {
    this.statements = new StatementCache(db);
    this.scopeSizes = new UntilWriteMemo(db);
    this.scopeKeyLists = new UntilWriteMemo(db, SCOPE_KEY_LISTS);
  }

  async fullText(query: FullTextQuery, filter: SearchFilter, limit: number, options: FullTextOptions = { contextWeight: 0 }):
    Promise<ScoredKey[]> {
    try {
      const column = this.columnOf(options);
      const dense = densePhrases(this.statements, allPhrases(query), (phrase) => column(toFts5Match(phrase)), this.maxScored,
        options.commonShare);
      if (dense.size === 0) return this.ranked(query, filter, limit, options);
      return this.rankedAroundDense(query, dense, filter, limit, options);
    } catch (error) {
      // The query was parsed and rendered from tokens only; FTS5 refusing it would be our bug, but it is still the query's.
      const message = (error as Error).message;
      if (/fts5|syntax/i.test(message)) {
        throw new ValidationError(`Invalid full-text query: ${message.replace(/^fts5: /, '')}`, ErrorCode.INVALID_QUERY);
      }
      throw error;
    }
  }

  /** Without context, the column filter keeps matches to the message's own words. */
  private columnOf(options: FullTextOptions): (match: string) => string {
    return Number(options.contextWeight) > 0 ? (match) => match : (match) => `content : (${match})`;
  }

  /**
   * A query naming dense phrases (sqlite-dense-phrases.ts), ranked by its other positive phrases, which is
   * bm25() less only the dense phrases' floored share: their matches come first, best first; then, up to
   * `limit`, the newest matches that hold only dense phrases, all with FTS5's floor score (DENSE_SCORE).
   */
  private rankedAroundDense(query: FullTextQuery, dense: ReadonlySet<Phrase>, filter: SearchFilter, limit: number,
    options: FullTextOptions): ScoredKey[] {
    const expression = this.columnOf(options)(toFts5Match(query));
    const informative = positiveTerms(query).filter((phrase) => !dense.has(phrase));
    let ranking: ScoredKey[] = [];
    if (informative.length > 0) {
      const scoring: FullTextQuery = informative.length === 1 ? informative[0]! : { kind: 'or', items: informative };
      if (isAnyOfPhrases(query)) ranking = this.ranked(scoring, filter, limit, options);
      else {
        // An AND or NOT: a match of the informative phrases must still match the whole query. Most do (the
        // dense phrase is in most messages), so a few times the limit is tried before the whole window.
        const members = (pool: ScoredKey[]) => {
          const matching = new Set(this.matchesBetween(expression, pool.map((item) => item.key)));
          return pool.filter((item) => matching.has(item.key));
        };
        const depth = Math.min(limit * MEMBERSHIP_FACTOR, this.maxScored);
        const pool = this.ranked(scoring, filter, depth, options);
        ranking = members(pool);
        if (ranking.length < limit && pool.length >= depth && depth < this.maxScored) {
          ranking = members(this.ranked(scoring, filter, this.maxScored, options));
        }
        ranking = ranking.slice(0, limit);
      }
    }
    if (ranking.length >= limit) return ranking;
    const seen = new Set(ranking.map((item) => item.key));
    const newest = this.newestMatches(expression, filter, limit + seen.size).filter((key) => !seen.has(key));
    return [...ranking, ...newest.slice(0, limit - ranking.length).map((key) => ({ key, score: DENSE_SCORE }))];
  }

  /** The keys of the expression's matches from the lowest to the highest of `keys` (no scoring, so no counting). */
  private matchesBetween(expression: string, keys: readonly number[]): number[] {
    if (keys.length === 0) return [];
    return this.statements.get(`SELECT rowid FROM messages_fts WHERE messages_fts MATCH ?
      AND rowid BETWEEN ${KEY_PARAM} AND ${KEY_PARAM}`).pluck()
      .all(expression, Math.min(...keys), Math.max(...keys)) as number[];
  }

  /**
   * The newest `count` matches the filter admits. Under a filter, the newest `maxScored` matches are tried
   * first; only if too few of them pass is every match walked.
   */
  private newestMatches(expression: string, filter: SearchFilter, count: number): number[] {
    if (!hasFilter(filter)) {
      return this.statements.get(`SELECT rowid FROM messages_fts WHERE messages_fts MATCH ? ORDER BY rowid DESC LIMIT ?`)
        .pluck().all(expression, count) as number[];
    }
    // A small scope's keys checked as the matches are walked, newest first: joining each match to its conversation
    // instead took 11 of a 1% folder's 16 ms for a question of common words (100K messages; bench/NOTES.md).
    const scope = this.smallScope(filter);
    if (scope !== null) {
      return this.statements.get(`SELECT rowid FROM messages_fts WHERE messages_fts MATCH ?
        AND +rowid IN (SELECT value FROM json_each(?)) ORDER BY rowid DESC LIMIT ?`).pluck().all(expression, scope, count) as number[];
    }
    const where = searchFilterWhere(filter);
    const walk = (fromKey: number) => this.statements.get(`SELECT f.rowid FROM messages_fts f
      CROSS JOIN messages m ON m.seq = f.rowid CROSS JOIN conversations c ON c.id = m.conversation_id
      WHERE messages_fts MATCH ? AND f.rowid >= ${KEY_PARAM} AND ${where.sql}
      ORDER BY f.rowid DESC LIMIT ?`).pluck().all(expression, fromKey, ...where.params, count) as number[];
    const boundary = this.nthNewest(expression, this.maxScored);
    if (boundary === undefined) return walk(0);
    const bounded = walk(boundary);
    return bounded.length >= count ? bounded : walk(0);
  }

  /** The key of the expression's nth newest match, found by walking its index backwards without scoring. */
  private nthNewest(expression: string, n: number): number | undefined {
    return this.statements.get(`SELECT rowid FROM messages_fts WHERE messages_fts MATCH ?
      ORDER BY rowid DESC LIMIT 1 OFFSET ?`).pluck().get(expression, n - 1) as number | undefined;
  }

  /** BM25 ranking of the query's matches, best first, at most `limit` (the newest `maxScored` when there are more). */
  private ranked(query: FullTextQuery, filter: SearchFilter, limit: number, options: FullTextOptions): ScoredKey[] {
    const where = searchFilterWhere(filter);
    const weight = Number(options.contextWeight);
    const column = this.columnOf(options);
    const expression = column(toFts5Match(query));
    const bm25 = `bm25(messages_fts, 1.0, ${weight > 0 ? weight : 0})`;
    const filtered = hasFilter(filter);
    // bm25() is lower-is-better and negative; negate it so scores grow with relevance. Ordering by the
    // alias computes it once a row.
    const scoredThenFiltered = (fromKey: number, count: number) => this.statements.get(`
      SELECT f.rowid AS key, -${bm25} AS score
      FROM messages_fts f
      JOIN messages m ON m.seq = f.rowid
      JOIN conversations c ON c.id = m.conversation_id
      WHERE messages_fts MATCH ? AND f.rowid >= ${KEY_PARAM} AND ${where.sql}
      ORDER BY score DESC, f.rowid
      LIMIT ?`).all(expression, fromKey, ...where.params, count) as ScoredKey[];
    const scored = (fromKey: number, count: number) => this.statements.get(`
      SELECT rowid AS key, -${bm25} AS score FROM messages_fts
      WHERE messages_fts MATCH ? AND rowid >= ${KEY_PARAM}
      ORDER BY score DESC, rowid
      LIMIT ?`).all(expression, fromKey, count) as ScoredKey[];
    // Joining every match to its conversation costs more than scoring it. Most filters (archived: false,
    // a large folder) admit most matches: rank without the join, then filter the best few. Only when too
    // few of those pass is every match joined and filtered first; either way the result is the same.
    const rankedFrom = (fromKey: number, count: number): ScoredKey[] => {
      if (!filtered) return scored(fromKey, count);
      const pool = scored(fromKey, count * FILTER_AFTER_FACTOR);
      const admitted = new Set(admittedKeys(this.statements, pool.map((item) => item.key), filter));
      const kept = pool.filter((item) => admitted.has(item.key));
      return kept.length >= count || pool.length < count * FILTER_AFTER_FACTOR ? kept.slice(0, count) : scoredThenFiltered(fromKey, count);
    };
    // A scope holding most of the store has nearly the store's statistics: not worth rescoring.
    const terms = options.scopedStatistics && filtered && !this.holdsMostOfStore(filter) ? plainWords(query) : null;
    // Rescoring for the scope re-orders the store-wide ranking: take more candidates from it.
    const depth = terms ? limit * SCOPED_CANDIDATES_FACTOR : limit;
    let candidates: ScoredKey[];
    const scopeKeys = this.smallScope(filter);
    if (scopeKeys !== null) candidates = this.rankedInScope(expression, scopeKeys, bm25, depth);
    else {
      // A very common word matches a large share of the store: score only its newest matches,
      // found by walking the index backwards without scoring. Rarer queries are scored in full.
      const boundary = this.nthNewest(expression, this.maxScored);
      const bounded = boundary === undefined ? null : rankedFrom(boundary, depth);
      // A filter may leave too few of those: then the whole match set is scored after all.
      candidates = bounded !== null && bounded.length >= depth ? bounded : rankedFrom(0, depth);
    }
    return terms ? this.rescoreForScope(terms.map((term) => column(`"${term}"`)), filter, scopeKeys, candidates, bm25, limit) : candidates;
  }

  /**
   * BM25 over every match the filter admits, for a small scope: the same answer as ranking every match and keeping
   * the admitted ones. `+rowid` keeps the keys a filter on the walk: as a constraint on the full-text table's rowid,
   * SQLite would look each key up in the index, re-reading the query's terms every time (seconds).
   */
  private rankedInScope(expression: string, keys: string, bm25: string, limit: number): ScoredKey[] {
    if (keys === '[]') return [];
    return this.statements.get(`SELECT rowid AS key, -${bm25} AS score FROM messages_fts
      WHERE messages_fts MATCH ? AND +rowid IN (SELECT value FROM json_each(?))
      ORDER BY score DESC, rowid LIMIT ?`).all(expression, keys, limit) as ScoredKey[];
  }

  /**
   * A filter's message keys as JSON (for json_each) when it admits at most smallScopeRows, remembered until a write
   * for the ranking, the rescoring and the newest matches alike; null without a filter or for a larger scope.
   */
  private smallScope(filter: SearchFilter): string | null {
    if (!hasFilter(filter) || this.scopeSize(filter).scopeRows > this.smallScopeRows) return null;
    return this.scopeKeyLists.get(JSON.stringify(filter), () => JSON.stringify(this.scopeKeys(filter)));
  }

  /** The keys of a small scope's messages, read from the conversations' index. */
  private scopeKeys(filter: SearchFilter): number[] {
    const where = searchFilterWhere(filter);
    return this.statements.get(`SELECT m.seq FROM conversations c JOIN messages m ON m.conversation_id = c.id
      WHERE ${where.sql}`).pluck().all(...where.params) as number[];
  }

  /**
   * Messages in the store and in the filter's scope. A filter on conversations alone (folder, label,
   * importance, archived) sums their message counts, a read per conversation instead of per message;
   * date bounds count the messages.
   */
  private holdsMostOfStore(filter: SearchFilter): boolean {
    const { storeRows, scopeRows } = this.scopeSize(filter);
    return scopeRows * 2 > storeRows;
  }

  /** The same filter (context assembly's archived: false) comes again and again: remembered until a write. */
  private scopeSize(filter: SearchFilter): { storeRows: number; scopeRows: number } {
    return this.scopeSizes.get(JSON.stringify(filter), () => this.countScope(filter));
  }

  private countScope(filter: SearchFilter): { storeRows: number; scopeRows: number } {
    const where = searchFilterWhere(filter);
    if (filter.dateFrom !== undefined || filter.dateTo !== undefined) {
      return {
        storeRows: this.statements.get('SELECT count(*) FROM messages').pluck().get() as number,
        scopeRows: this.statements.get(`SELECT count(*) FROM messages m JOIN conversations c ON c.id = m.conversation_id
          WHERE ${where.sql}`).pluck().get(...where.params) as number,
      };
    }
    return {
      storeRows: this.statements.get('SELECT coalesce(sum(message_count), 0) FROM conversations').pluck().get() as number,
      scopeRows: this.statements.get(`SELECT coalesce(sum(c.message_count), 0) FROM conversations c WHERE ${where.sql}`)
        .pluck().get(...where.params) as number,
    };
  }

  /** The candidates re-ranked with each term's idf taken over the messages the filter admits (scoped-term-statistics.ts). */
  private rescoreForScope(termMatches: readonly string[], filter: SearchFilter, scopeKeys: string | null,
    candidates: readonly ScoredKey[], bm25: string, limit: number):
    ScoredKey[] {
    if (candidates.length === 0) return [];
    const where = searchFilterWhere(filter);
    const { storeRows, scopeRows } = this.scopeSize(filter);
    const keys = candidates.map((item) => item.key);
    const [low, high] = [Math.min(...keys), Math.max(...keys)];
    // A small scope's keys are checked as each term's matches are walked (+rowid: a filter, not a lookup per key); a
    // large scope is joined, and its candidates' scores read over their key range.
    const terms: TermEvidence[] = [];
    for (const match of termMatches) {
      const inStore = this.statements.get('SELECT count(*) FROM messages_fts WHERE messages_fts MATCH ?').pluck().get(match) as number;
      if (scopeKeys !== null) {
        // The scope's matches of the term, scored: their count and the candidates' scores from one statement (a count
        // and then the candidates' scores read the matches twice more; 1% folder at 100K: p50 8.0 -> 6.4 ms).
        const scores = this.statements.get(`SELECT rowid AS key, -${bm25} AS score FROM messages_fts
          WHERE messages_fts MATCH ? AND +rowid IN (SELECT value FROM json_each(?))`).all(match, scopeKeys) as ScoredKey[];
        const ratio = bm25Idf(scopeRows, scores.length) / bm25Idf(storeRows, inStore);
        if (Math.abs(ratio - 1) > RATIO_TOLERANCE) terms.push({ ratio, scores });
        continue;
      }
      const inScope = this.statements.get(`SELECT count(*) FROM messages_fts f JOIN messages m ON m.seq = f.rowid
        JOIN conversations c ON c.id = m.conversation_id WHERE messages_fts MATCH ? AND ${where.sql}`)
        .pluck().get(match, ...where.params) as number;
      const ratio = bm25Idf(scopeRows, inScope) / bm25Idf(storeRows, inStore);
      if (Math.abs(ratio - 1) <= RATIO_TOLERANCE) continue;
      // FTS5 narrows a MATCH by a rowid range but not by a rowid list (measured): scan the range, keep the candidates.
      const scores = this.statements.get(`SELECT rowid AS key, -${bm25} AS score FROM messages_fts
        WHERE messages_fts MATCH ? AND rowid BETWEEN ${KEY_PARAM} AND ${KEY_PARAM}`).all(match, low, high) as ScoredKey[];
      terms.push({ ratio, scores });
    }
    return rescoreForScope(candidates, terms, limit);
  }

  async neighbours(keys: readonly number[], filter: SearchFilter): Promise<Map<number, number[]>> {
    const where = searchFilterWhere(filter);
    const rows = this.statements.get(`
      SELECT source.seq AS key, m.seq AS neighbour
      FROM messages source
      JOIN messages m ON m.conversation_id = source.conversation_id
        AND m.position IN (source.position - 1, source.position + 1)
      JOIN conversations c ON c.id = m.conversation_id
      WHERE ${inKeys('source.seq')} AND ${where.sql}
      ORDER BY source.seq, m.position`)
      .all(keysParam(keys), ...where.params) as Array<{ key: number; neighbour: number }>;
    return groupNeighbours(rows);
  }

  async hydrate(keys: readonly number[]): Promise<MessageHit[]> {
    const rows = this.statements.get(`SELECT ${HIT_COLUMNS}
      FROM messages m JOIN conversations c ON c.id = m.conversation_id
      WHERE ${inKeys('m.seq')}`).raw().all(keysParam(keys)) as HitColumns[];
    const byKey = new Map(rows.map((row) => [row[0], hitFromColumns(row)]));
    return keys.flatMap((key) => byKey.get(key) ?? []);
  }
}
