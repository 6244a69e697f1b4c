import { positiveTerms, type FullTextQuery } from '../../domain/full-text-query.js';
import type { MessageHit, ScoredKey, SearchFilter } from '../../domain/search.js';
import type { FullTextOptions, MessageSearchReader } from '../../ports/message-search.js';
import { searchFilterWhere } from '../sql/filter-sql.js';
import { numbered, type Pool } from './postgres-pool.js';
import { toTsquery } from './postgres-tsquery.js';
import { groupNeighbours, HIT_COLUMNS, hitFromColumns, type HitColumns } from '../sql/rows.js';

/** BM25's usual constants (FTS5 uses the same). */
const K1 = 1.2;
const B = 0.75;
/** How long the message count used for IDF may be stale. */
const CORPUS_SIZE_TTL_MS = 10_000;


/**
 * Full text over tsvector + GIN with English stemming. Postgres's own ts_rank
 * has no inverse document frequency, which matters for questions ("any of
 * these words, rare ones first"), so queries of plain words are scored with
 * BM25 computed over the matching rows: term frequencies from the tsvector
 * (the message's own words weight A; its neighbours', weight B, count
 * `contextWeight`), document frequencies from the matches. Queries with
 * phrases or prefixes, which BM25 has no lexeme for, rank by ts_rank.
 */
export class PostgresMessageSearch implements MessageSearchReader {
  private corpus: { size: number; at: number } | null = null;

  constructor(private readonly pool: Pool) {}

  async fullText(query: FullTextQuery, filter: SearchFilter, limit: number, options: FullTextOptions = { contextWeight: 0 }):
    Promise<ScoredKey[]> {
    const contextWeight = Math.max(0, Number(options.contextWeight));
    // Without context, lexemes match the message's own words only (weight A).
    const tsquery = toTsquery(query, contextWeight > 0 ? '' : 'A');
    const where = searchFilterWhere(filter);
    const terms = positiveTerms(query);
    if (terms.every((term) => term.kind === 'term' && !term.prefix)) {
      const words = terms.map((term) => (term.kind === 'term' ? term.token : '')).join(' ');
      const { rows } = await this.pool.query<ScoredKey>(numbered(`
        WITH matched AS (
          SELECT m.seq, m.search_tsv AS tsv, length(m.search_tsv) AS len
          FROM messages m JOIN conversations c ON c.id = m.conversation_id
          WHERE m.search_tsv @@ to_tsquery('english', ?) AND ${where.sql}),
        lexemes AS (SELECT array_agg(DISTINCT u.lexeme) AS list FROM unnest(to_tsvector('english', ?)) u),
        postings AS (
          SELECT matched.seq, matched.len, u.lexeme,
            cardinality(array_positions(u.weights, 'A')) + ?::float8 * cardinality(array_positions(u.weights, 'B')) AS tf
          FROM matched CROSS JOIN LATERAL unnest(matched.tsv) u, lexemes
          WHERE u.lexeme = ANY(lexemes.list)),
        df AS (SELECT lexeme, count(*) AS n FROM postings WHERE tf > 0 GROUP BY lexeme),
        average AS (SELECT greatest(avg(len), 1) AS len FROM matched)
        SELECT p.seq AS key,
          sum(ln(1 + (greatest(?::float8, df.n) - df.n + 0.5) / (df.n + 0.5))
            * p.tf * ${K1 + 1} / (p.tf + ${K1} * (${1 - B} + ${B} * p.len / average.len)))::float8 AS score
        FROM postings p JOIN df USING (lexeme) CROSS JOIN average
        WHERE p.tf > 0
        GROUP BY p.seq ORDER BY score DESC, p.seq LIMIT ?`),
      [tsquery, ...where.params, words, contextWeight, await this.corpusSize(), limit]);
      return rows;
    }
    const { rows } = await this.pool.query<ScoredKey>(numbered(`
      SELECT m.seq AS key, ts_rank(?::float4[], m.search_tsv, to_tsquery('english', ?))::float8 AS score
      FROM messages m JOIN conversations c ON c.id = m.conversation_id
      WHERE m.search_tsv @@ to_tsquery('english', ?) AND ${where.sql}
      ORDER BY score DESC, m.seq LIMIT ?`),
    [`{0,0,${contextWeight},1}`, tsquery, tsquery, ...where.params, limit]);
    return rows;
  }

  async neighbours(keys: readonly number[], filter: SearchFilter): Promise<Map<number, number[]>> {
    const where = searchFilterWhere(filter);
    const { rows } = await this.pool.query<{ key: number; neighbour: number }>(numbered(`
      SELECT source.seq AS key, m.seq AS neighbour
      FROM messages source
      JOIN messages m ON m.conversation_id = source.conversation_id
        AND m.position IN (source.position - 1, source.position + 1)
      JOIN conversations c ON c.id = m.conversation_id
      WHERE source.seq = ANY(?::bigint[]) AND ${where.sql}
      ORDER BY source.seq, m.position`), [keys, ...where.params]);
    return groupNeighbours(rows);
  }

  async hydrate(keys: readonly number[]): Promise<MessageHit[]> {
    const { rows } = await this.pool.query<HitColumns>({
      text: `SELECT ${HIT_COLUMNS} FROM messages m JOIN conversations c ON c.id = m.conversation_id
        WHERE m.seq = ANY($1::bigint[])`,
      values: [keys],
      rowMode: 'array',
    });
    const byKey = new Map(rows.map((row) => [row[0], hitFromColumns(row)]));
    return keys.flatMap((key) => byKey.get(key) ?? []);
  }

  /** Messages in the store, for IDF: refreshed at most every few seconds, since only its logarithm matters. */
  private async corpusSize(): Promise<number> {
    if (this.corpus && Date.now() - this.corpus.at < CORPUS_SIZE_TTL_MS) return this.corpus.size;
    const { rows } = await this.pool.query<{ n: number }>('SELECT coalesce(sum(message_count), 0) AS n FROM conversations');
    this.corpus = { size: rows[0]!.n, at: Date.now() };
    return this.corpus.size;
  }
}
