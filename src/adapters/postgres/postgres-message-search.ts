import { plainWords, type FullTextQuery } from '../../domain/full-text-query.js';
import { byScoreThenKey, type MessageHit, type ScoredKey, type SearchFilter } from '../../domain/search.js';
import type { FullTextOptions, MessageSearchReader } from '../../ports/message-search.js';
import { folderSubtreeRange, hasFilter, MESSAGE_FILTER_COLUMNS, searchFilterWhere, type SqlFragment } from '../sql/filter-sql.js';
import { AdmittedMessages } from './postgres-admitted-messages.js';
import { EMBEDDING_ID, numbered, type Pool } from './postgres-pool.js';
import { toTsquery } from './postgres-tsquery.js';
import { PostgresTermStatistics } from './postgres-term-statistics.js';
import { groupNeighbours, hitColumns, hitFromColumns, type HitColumns } from '../sql/rows.js';

/** The hit columns, with the embedding id from the message's job (`LEFT JOIN embedding_jobs j`). */
const HIT_COLUMNS = hitColumns(EMBEDDING_ID);

/** BM25's usual constants (FTS5 uses the same). */
const K1 = 1.2;
const B = 0.75;
/**
 * Matches one full-text query ranks at most. A question's words are taken rarest first while their matches fit;
 * the rest of its informative words add their newest matches up to this many. Every match is ranked below it.
 * 6,000: the top ten agree with BM25 over every match for 0.92 of real questions at 100K (2,000: 0.71; bench/NOTES.md).
 */
export const FULL_TEXT_MAX_SCORED = 6_000;
/**
 * The newest matches the words after the complete ones add, at most: found by walking the newest messages, which
 * costs the count over the words' share of the store (500 of a word in 4% of it: about 12,500 rows read).
 */
const RECENT_MAX_SCORED = 500;
/** Groups the complete words' matches are scored in, each by a statement of its own at once (balancedGroups). */
const COMPLETE_GROUPS = 2;
/** Phrases, prefixes and operators rank their newest matches, at most this many (each read walks the newest rows). */
const EXPLICIT_MAX_SCORED = 2_000;
/** A filter whose conversations hold at most this many messages is searched from them. */
const NARROW_FILTER_MESSAGES = 20_000;
/**
 * Under a filter checked per candidate, the newest matches of words estimated to match at most this many messages
 * are found through the full-text index (every match, newest first, until enough pass the filter), not by walking
 * the newest messages: that walk checks each message it reads (about 1.15 µs each), and under a filter admitting a
 * share s of the store reads 1 / s times more of them, up to 600,000 for rare words under a 10% folder at a million
 * messages. Through the index each match costs 2.5-8 µs (a heap page each, cached or not), so only rare words go
 * that way (bench/NOTES.md, session 45).
 */
const FILTERED_INDEX_MATCHES = 10_000;
/**
 * Under a filter checked per candidate, other words' newest matches are walked for among this many newest messages
 * of the store; were fewer than a page (FILTERED_WALK_AT_LEAST, or the limit) found there, among all of them. Without
 * the bound, a 10% folder at a million messages walked up to 600,000 rows for the 500 matches it asks (bench/NOTES.md,
 * session 45).
 */
const FILTERED_WALK_WINDOW = 100_000;
const FILTERED_WALK_AT_LEAST = 10;
/** A word in more than this share of the store (and in more messages than one query ranks) is common by default. */
const DEFAULT_COMMON_SHARE = 0.5;
/**
 * Scores are rounded to this many decimals, so messages that tie tie exactly (whatever order the sum took) and rank by
 * key. The scoring is float8 throughout: a numeric round converts each score through text, and numeric constants made
 * each length term numeric; both cost a question's keyword statements p50 / p95 11.9 / 21.5 ms against 8.5 / 14.4 ms
 * at 100K (bench/NOTES.md, session 43).
 */
const SCORE_DIGITS = 9;
/** ts_rank of a word the message holds once in its own words: ranks divide by it to read as term frequencies. */
const SINGLE_OCCURRENCE_RANK = 0.6079271;

/** A lexeme as a tsquery literal (lexemes are letters and digits; quoting keeps it so whatever they hold). */
const quoted = (lexeme: string) => `'${lexeme.replaceAll("'", "''")}'`;

/** One query word's place in the ranking. */
export interface RankedTerm {
  lexeme: string;
  /** Messages holding it. */
  documents: number;
}

/**
 * Which words of a plain-words query find candidates, and how: the informative ones (all but the common) rarest
 * first, all of whose matches are ranked while they fit in `maxScored` (`complete`); the informative ones after
 * them (`recent`) add their newest matches; `common` words only score. A query whose informative words match
 * nothing falls back to its common words' newest matches.
 */
export function planCandidates(terms: readonly RankedTerm[], corpus: number, maxScored: number, commonShare: number) {
  const isCommon = (term: RankedTerm) => term.documents > maxScored && term.documents > corpus * commonShare;
  const informative = terms.filter((term) => !isCommon(term) && term.documents > 0)
    .sort((a, b) => a.documents - b.documents || (a.lexeme < b.lexeme ? -1 : 1));
  const complete: string[] = [];
  let total = 0;
  for (const term of informative) {
    if (total + term.documents > maxScored) break;
    complete.push(term.lexeme);
    total += term.documents;
  }
  return {
    complete,
    recent: informative.slice(complete.length).map((term) => term.lexeme),
    common: terms.filter(isCommon).map((term) => term.lexeme),
    /** Matches the complete words bring (an upper bound: a message may hold several). */
    completeMatches: total,
  };
}

/**
 * `lexemes` in at most `count` groups of about equal matches (the most matched first, each to the lightest group),
 * in their given order within a group. Scoring a candidate is most of a keyword statement's time (about 20 of 28 ms
 * for 6,000 candidates at 100K), so the complete words' matches are scored in groups at once, a core each.
 */
export function balancedGroups(lexemes: readonly string[], documents: ReadonlyMap<string, number>, count: number): string[][] {
  const groups = Array.from({ length: Math.min(count, lexemes.length) }, () => ({ matches: 0, members: new Set<string>() }));
  if (groups.length === 0) return [];
  const heaviestFirst = [...lexemes].sort((a, b) => (documents.get(b) ?? 0) - (documents.get(a) ?? 0));
  for (const lexeme of heaviestFirst) {
    const lightest = groups.reduce((best, group) => (group.matches < best.matches ? group : best));
    lightest.matches += documents.get(lexeme) ?? 0;
    lightest.members.add(lexeme);
  }
  return groups.map((group) => lexemes.filter((lexeme) => group.members.has(lexeme)));
}

/** How a candidate query admits only what a filter does (PostgresMessageSearch.admittedBy). */
interface AdmittedBy {
  from: SqlFragment;
  where: SqlFragment;
  /** The filter's condition on `conversations c`, when it is checked per candidate (a broad filter); else null. */
  perCandidate: SqlFragment | null;
}

/** One part's candidates, and those to rank instead should they come to fewer than a page (candidatePart). */
interface CandidatePart {
  candidates: SqlFragment;
  wider?: SqlFragment;
}

/** Messages holding any of words held by `documents` of `corpus` messages each, were the words independent. */
export function estimatedMatches(documents: readonly number[], corpus: number): number {
  const missing = documents.reduce((share, n) => share * (1 - Math.min(1, n / Math.max(1, corpus))), 1);
  return Math.round(corpus * (1 - missing));
}

/** A list sorted by score then key, each key kept once (its first). */
function withoutRepeats(items: ScoredKey[]): ScoredKey[] {
  const seen = new Set<number>();
  return items.filter((item) => !seen.has(item.key) && seen.add(item.key) !== undefined);
}

export interface PostgresMessageSearchOptions {
  /** Matches one query ranks at most (FULL_TEXT_MAX_SCORED). */
  maxScored?: number;
  /** Newest matches the words after the complete ones add, at most (RECENT_MAX_SCORED). */
  recentMaxScored?: number;
  /** A filter whose conversations hold at most this many messages is searched from them (NARROW_FILTER_MESSAGES). */
  narrowFilterMessages?: number;
  /** Under a broader filter, newest matches of words matching at most this many are found by the index (FILTERED_INDEX_MATCHES). */
  filteredIndexMatches?: number;
  /** Under a broader filter, the newest messages other words' newest matches are walked for first (FILTERED_WALK_WINDOW). */
  filteredWalkWindow?: number;
  /** Answers about filters, shared with the vector search. */
  admitted?: AdmittedMessages;
}

/**
 * Full text over tsvector + GIN with English stemming. Questions and other plain-words queries are ranked by BM25
 * over a bounded candidate set (planCandidates), never over every match: document frequencies come from
 * PostgresTermStatistics, term frequencies from ts_rank of each word alone (a word held once in the message's own
 * words counts 1, in a neighbour's `contextWeight`, repeats less and less), lengths from the tsvector. Queries with
 * phrases, prefixes or operators rank their newest matches by ts_rank.
 */
export class PostgresMessageSearch implements MessageSearchReader {
  readonly statistics: PostgresTermStatistics;

  private readonly maxScored: number;
  private readonly recentMaxScored: number;
  private readonly narrowFilterMessages: number;
  private readonly filteredIndexMatches: number;
  private readonly filteredWalkWindow: number;
  private readonly admitted: AdmittedMessages;

  constructor(private readonly pool: Pool, options: PostgresMessageSearchOptions = {}) {
    this.statistics = new PostgresTermStatistics(pool);
    this.maxScored = options.maxScored ?? FULL_TEXT_MAX_SCORED;
    this.recentMaxScored = options.recentMaxScored ?? RECENT_MAX_SCORED;
    this.narrowFilterMessages = options.narrowFilterMessages ?? NARROW_FILTER_MESSAGES;
    this.filteredIndexMatches = options.filteredIndexMatches ?? FILTERED_INDEX_MATCHES;
    this.filteredWalkWindow = options.filteredWalkWindow ?? FILTERED_WALK_WINDOW;
    this.admitted = options.admitted ?? new AdmittedMessages(pool);
  }

  async fullText(query: FullTextQuery, filter: SearchFilter, limit: number, options: FullTextOptions = { contextWeight: 0 }):
    Promise<ScoredKey[]> {
    const contextWeight = Math.max(0, Number(options.contextWeight));
    const words = plainWords(query);
    if (words) return this.rankedWords(words, filter, limit, contextWeight, options.commonShare ?? DEFAULT_COMMON_SHARE);
    return this.rankedExpression(query, filter, limit, contextWeight);
  }

  private async rankedWords(words: readonly string[], filter: SearchFilter, limit: number, contextWeight: number,
    commonShare: number): Promise<ScoredKey[]> {
    const lexemes = await this.statistics.lexemes(words);
    if (lexemes.length === 0 || limit <= 0) return [];
    const [{ frequencies, corpus, averageLength }, admitted] = await Promise.all([this.statistics.of(lexemes), this.admittedBy(filter)]);
    const plan = planCandidates(lexemes.map((lexeme) => ({ lexeme, documents: frequencies.get(lexeme) ?? 0 })), corpus,
      this.maxScored, commonShare);
    // Without context, lexemes match the message's own words only (weight A).
    const anyOf = (list: readonly string[]) => list.map((lexeme) => `${quoted(lexeme)}${contextWeight > 0 ? '' : ':A'}`).join(' | ');
    const parts: CandidatePart[] = [];
    // Each part is ranked by a statement of its own, all at once on their own connections: the complete words' matches
    // in two groups of words (a message holding words of both is ranked in both, to the same score), the recent
    // matches apart (they hold no complete word). Their best merge, each message once.
    const part = (lexemes: readonly string[], newest: number | null, excluding: string | null) => {
      const documents = lexemes.map((lexeme) => frequencies.get(lexeme) ?? 0);
      parts.push(this.candidatePart(anyOf(lexemes), excluding, newest, admitted, estimatedMatches(documents, corpus)));
    };
    const complete = plan.complete.length > 0 ? anyOf(plan.complete) : null;
    for (const group of balancedGroups(plan.complete, frequencies, COMPLETE_GROUPS)) part(group, null, null);
    if (plan.recent.length > 0) {
      part(plan.recent, Math.max(limit, Math.min(this.recentMaxScored, this.maxScored - plan.completeMatches)), complete);
    }
    if (!complete && plan.recent.length === 0 && plan.common.length > 0) part(plan.common, limit, null);
    if (parts.length === 0) return [];
    const scored = [...plan.complete, ...plan.recent, ...plan.common];
    const idf = scored.map((lexeme) => {
      const n = Math.min(frequencies.get(lexeme) ?? 0, corpus);
      return Math.log(1 + (Math.max(corpus, n) - n + 0.5) / (n + 0.5));
    });
    // Each candidate scored on its own (no join and regrouping of the wide tsvector rows) by one expression, a term
    // a word (no subplan a candidate: a question's full text p50 17.0 -> 14.3 ms at 100K; bench/NOTES.md), each
    // word's tsquery a constant. BM25's tf (k1 + 1) / (tf + norm) is written (k1 + 1) (1 - norm / (tf + norm)) so
    // that tf, a ts_rank, is computed once. A candidate matched one of the words, so its score is positive.
    const term = `CASE WHEN c.search_tsv @@ ?::tsquery THEN ?::float8 * ${K1 + 1} * (1 - l.norm /
      (ts_rank(?::float4[], c.search_tsv, ?::tsquery, 0) / ${SINGLE_OCCURRENCE_RANK} + l.norm)) ELSE 0 END`;
    const weights = `{0,0,${contextWeight},1}`;
    const termParams = scored.flatMap((lexeme, i) => [quoted(lexeme), idf[i], weights, quoted(lexeme)]);
    // A filter checked per candidate is checked before the scoring: left to itself the planner scored every match in
    // parallel workers and checked the best ones after (the complete words' part under a 10% folder at a million
    // messages: p50 131-157 against 40-46 ms).
    const rank = async (candidates: SqlFragment) => (await this.pool.query<ScoredKey>(numbered(`
      WITH candidates AS ${admitted.perCandidate ? 'MATERIALIZED ' : ''}(${candidates.sql})
      SELECT c.seq AS key, round((${scored.map(() => term).join(' + ')}) * 1e${SCORE_DIGITS}::float8) / 1e${SCORE_DIGITS}::float8 AS score
      FROM candidates c CROSS JOIN LATERAL (SELECT ${K1}::float8 * (${1 - B}::float8 + ${B}::float8 * length(c.search_tsv) / ?::float8) AS norm) l
      ORDER BY score DESC, c.seq LIMIT ?`),
    [...candidates.params, ...termParams, averageLength, limit])).rows;
    const ranked = await Promise.all(parts.map(async ({ candidates, wider }) => {
      const rows = await rank(candidates);
      return wider && rows.length < Math.min(limit, FILTERED_WALK_AT_LEAST) ? rank(wider) : rows;
    }));
    return withoutRepeats(ranked.flat().sort(byScoreThenKey)).slice(0, limit);
  }

  /**
   * The candidates of one part: the messages matching `tsquery` (and not `excluding`) that the filter admits, all of
   * them or the `newest` ones. Under a filter checked per candidate, the newest of words estimated at few `matches`
   * come through the full-text index (FILTERED_INDEX_MATCHES), the others from a walk of the newest messages
   * (FILTERED_WALK_WINDOW), with every message walked as the `wider` candidates should that find fewer than a page.
   */
  private candidatePart(tsquery: string, excluding: string | null, newest: number | null, admitted: AdmittedBy,
    matches: number): CandidatePart {
    const matching = `m.search_tsv @@ ?::tsquery ${excluding === null ? '' : 'AND NOT m.search_tsv @@ ?::tsquery'}`;
    const matchingParams = [tsquery, ...(excluding === null ? [] : [excluding])];
    const walked = (window: boolean): SqlFragment => ({
      sql: `SELECT m.seq, m.search_tsv FROM messages m ${admitted.from.sql} WHERE ${matching}
        ${window ? 'AND m.seq > (SELECT max(seq) FROM messages) - ?' : ''} AND ${admitted.where.sql}
        ${newest === null ? '' : 'ORDER BY m.seq DESC LIMIT ?'}`,
      params: [...admitted.from.params, ...matchingParams, ...(window ? [this.filteredWalkWindow] : []), ...admitted.where.params,
        ...(newest === null ? [] : [newest])],
    });
    if (newest === null || !admitted.perCandidate) return { candidates: walked(false) };
    if (matches > this.filteredIndexMatches) return { candidates: walked(true), wider: walked(false) };
    return {
      candidates: {
        // The matches stand in for `m`, with the columns a filter reads.
        sql: `WITH matches AS MATERIALIZED (SELECT m.seq, m.conversation_id, ${MESSAGE_FILTER_COLUMNS.map((column) => `m.${column}`).join(', ')}
          FROM messages m WHERE ${matching})
          SELECT t.seq, t.search_tsv FROM (SELECT m.seq FROM (SELECT * FROM matches ORDER BY seq DESC OFFSET 0) m
            CROSS JOIN LATERAL (SELECT 1 FROM conversations c WHERE c.id = m.conversation_id AND ${admitted.perCandidate.sql} OFFSET 0) a
            LIMIT ?) n JOIN messages t ON t.seq = n.seq`,
        params: [...matchingParams, ...admitted.perCandidate.params, newest],
      },
    };
  }

  /** Phrases, prefixes and operators: the newest matches, at most EXPLICIT_MAX_SCORED (or maxScored) of them, ranked by ts_rank. */
  private async rankedExpression(query: FullTextQuery, filter: SearchFilter, limit: number, contextWeight: number):
    Promise<ScoredKey[]> {
    const tsquery = toTsquery(query, contextWeight > 0 ? '' : 'A');
    const admitted = await this.admittedBy(filter);
    const { rows } = await this.pool.query<ScoredKey>(numbered(`
      SELECT s.seq AS key, ts_rank(?::float4[], s.search_tsv, to_tsquery('english', ?))::float8 AS score
      FROM (SELECT m.seq, m.search_tsv FROM messages m ${admitted.from.sql}
        WHERE m.search_tsv @@ to_tsquery('english', ?) AND ${admitted.where.sql} ORDER BY m.seq DESC LIMIT ?) s
      ORDER BY score DESC, s.seq LIMIT ?`),
    [`{0,0,${contextWeight},1}`, tsquery, ...admitted.from.params, tsquery, ...admitted.where.params, Math.min(this.maxScored, EXPLICIT_MAX_SCORED), limit]);
    return rows;
  }

  /**
   * How a candidate query over `messages m` admits only what the filter does: `from` joins after the table, `where`
   * adds to the WHERE clause. A narrow filter's few conversations lead the plan (a join); a broad one is checked per
   * candidate, a key lookup each, rather than hashing every conversation it admits (the OFFSET 0 fence keeps the
   * planner from flattening it into that); `perCandidate` is then its condition on `conversations c`.
   */
  private async admittedBy(requested: SearchFilter): Promise<AdmittedBy> {
    const none = { sql: '', params: [] };
    const filter = await this.admitted.withoutNoOps(requested);
    if (!hasFilter(filter)) return { from: none, where: { sql: 'TRUE', params: [] }, perCandidate: null };
    const where = searchFilterWhere(filter, folderSubtreeRange);
    if (await this.admitted.atMost(filter, this.narrowFilterMessages)) {
      return { from: { sql: 'JOIN conversations c ON c.id = m.conversation_id', params: [] }, where, perCandidate: null };
    }
    return {
      from: { sql: `CROSS JOIN LATERAL (SELECT 1 FROM conversations c WHERE c.id = m.conversation_id AND ${where.sql} OFFSET 0) admitted`,
        params: where.params },
      where: { sql: 'TRUE', params: [] },
      perCandidate: where,
    };
  }

  async neighbours(keys: readonly number[], requested: SearchFilter): Promise<Map<number, number[]>> {
    const filter = await this.admitted.withoutNoOps(requested);
    const where = searchFilterWhere(filter, folderSubtreeRange);
    // Both neighbours by their (conversation, position) key, and the conversation only for a filter that needs it:
    // 346 keys took 4-5.7 ms with `position IN (…)` and the conversation joined, 2.3 ms so (100K messages).
    const { rows } = await this.pool.query<{ key: number; neighbour: number }>(numbered(`
      SELECT source.seq AS key, m.seq AS neighbour
      FROM messages source
      CROSS JOIN LATERAL (SELECT m.seq, m.position, m.timestamp FROM messages m WHERE m.conversation_id = source.conversation_id
        AND m.position = ANY(ARRAY[source.position - 1, source.position + 1])) m
      ${hasFilter(filter) ? 'JOIN conversations c ON c.id = source.conversation_id' : ''}
      WHERE source.seq = ANY(?::bigint[]) AND ${where.sql}
      ORDER BY source.seq, m.position`), [keys, ...where.params]);
    return groupNeighbours(rows);
  }

  async hydrate(keys: readonly number[]): Promise<MessageHit[]> {
    // Each hit's conversation by its key (the OFFSET 0 fence): left to itself the planner hashed every conversation
    // for a context's 500 hits (2.7-3.7 rather than 1.8-2.2 ms at 100K messages, and growing with the store).
    const { rows } = await this.pool.query<HitColumns>({
      text: `SELECT ${HIT_COLUMNS} FROM messages m
        CROSS JOIN LATERAL (SELECT * FROM conversations c WHERE c.id = m.conversation_id OFFSET 0) c
        LEFT JOIN embedding_jobs j ON j.message_seq = m.seq WHERE m.seq = ANY($1::bigint[])`,
      values: [keys],
      rowMode: 'array',
    });
    const byKey = new Map(rows.map((row) => [row[0], hitFromColumns(row)]));
    return keys.flatMap((key) => byKey.get(key) ?? []);
  }
}
