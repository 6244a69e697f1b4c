import type { Pool } from './postgres-pool.js';

/** Messages whose words make the sample of the store's vocabulary (the newest ones). */
const SAMPLE_SIZE = 5_000;
/** A lexeme seen fewer times in the sample is counted exactly (it is rare, so the count is cheap). */
const SAMPLE_MIN_COUNT = 5;
/** How long a sample, the store's size and an exact count are trusted: document frequencies only matter by their logarithm. */
const STATISTICS_TTL_MS = 60_000;
/** An exact count is trusted this long: a rare word stays rare. */
const EXACT_TTL_MS = 10 * 60_000;
/** Exact counts stop here: a word with more matches than this is no longer rare, and its idf hardly moves. */
const EXACT_COUNT_CAP = 20_000;
/** Words and counts kept at most (all are dropped past it). */
const MAX_COUNTS = 20_000;

/** What BM25 needs of the store for one query's words. */
export interface TermStatistics {
  /** Messages holding each word (in their own words or their neighbours'), estimated or counted. */
  frequencies: Map<string, number>;
  /** Messages in the store. */
  corpus: number;
  /** The average full-text length (lexemes, own and neighbours') of a message. */
  averageLength: number;
}

/**
 * How many messages hold each word, for BM25's inverse document frequency and for telling a question's common words
 * from its informative ones, without counting a common word's matches at query time (the cost that made full text
 * on PostgreSQL seconds slow): the newest messages are sampled behind the queries, a word frequent there is
 * estimated from its share, and a word rare there is counted exactly through the GIN index, which is cheap because
 * it is rare. Kept per replica; a minute stale at most.
 */
export class PostgresTermStatistics {
  private sample: { counts: Map<string, number>; size: number; at: number; averageLength: number } | null = null;
  private sampling: Promise<void> | null = null;
  private corpus: { size: number; at: number } | null = null;
  private readonly exact = new Map<string, { n: number; at: number }>();
  private readonly stems = new Map<string, string | null>();

  constructor(private readonly pool: Pool) {}

  /** The stored lexemes of plain words (English stemming, as the index has them); stopwords give none. */
  async lexemes(words: readonly string[]): Promise<string[]> {
    const unknown = [...new Set(words.filter((word) => !this.stems.has(word)))];
    if (unknown.length > 0) {
      const { rows } = await this.pool.query<{ word: string; lexeme: string | null }>(`SELECT w AS word,
        (SELECT lexeme FROM unnest(to_tsvector('english', w)) LIMIT 1) AS lexeme FROM unnest($1::text[]) w`, [unknown]);
      if (this.stems.size > MAX_COUNTS) this.stems.clear();
      for (const row of rows) this.stems.set(row.word, row.lexeme);
    }
    return [...new Set(words.map((word) => this.stems.get(word) ?? null).filter((lexeme): lexeme is string => lexeme !== null))];
  }

  async of(lexemes: readonly string[]): Promise<TermStatistics> {
    const [corpus, sample] = await Promise.all([this.corpusSize(), this.currentSample()]);
    const frequencies = new Map<string, number>();
    const toCount: string[] = [];
    const now = Date.now();
    for (const lexeme of lexemes) {
      const seen = sample.counts.get(lexeme) ?? 0;
      const counted = this.exact.get(lexeme);
      if (seen >= SAMPLE_MIN_COUNT && sample.size > 0) frequencies.set(lexeme, Math.round((seen / sample.size) * corpus));
      else if (counted && now - counted.at < EXACT_TTL_MS) frequencies.set(lexeme, counted.n);
      else toCount.push(lexeme);
    }
    if (toCount.length > 0) {
      const { rows } = await this.pool.query<{ lexeme: string; n: number }>(`SELECT l AS lexeme,
        (SELECT count(*) FROM (SELECT 1 FROM messages WHERE search_tsv @@ quote_literal(l)::tsquery LIMIT $2) s) AS n
        FROM unnest($1::text[]) l`, [toCount, EXACT_COUNT_CAP]);
      if (this.exact.size > MAX_COUNTS) this.exact.clear();
      for (const row of rows) {
        this.exact.set(row.lexeme, { n: row.n, at: now });
        frequencies.set(row.lexeme, row.n);
      }
    }
    return { frequencies, corpus, averageLength: sample.averageLength };
  }

  /** Messages in the store. */
  async corpusSize(): Promise<number> {
    if (this.corpus && Date.now() - this.corpus.at < STATISTICS_TTL_MS) return this.corpus.size;
    const { rows } = await this.pool.query<{ n: number }>('SELECT coalesce(sum(message_count), 0) AS n FROM conversations');
    this.corpus = { size: rows[0]!.n, at: Date.now() };
    return this.corpus.size;
  }

  /** The current sample; a stale one is answered while its successor is taken behind. */
  private async currentSample() {
    if (this.sample && Date.now() - this.sample.at >= STATISTICS_TTL_MS) void this.refresh();
    if (!this.sample) await this.refresh();
    return this.sample!;
  }

  private refresh(): Promise<void> {
    this.sampling ??= (async () => {
      // Each lexeme's count in the sample, and (under the null lexeme) the sample's size and average length. ts_stat
      // counts in C what unnest and GROUP BY counted in 245 ms of a core at 100K messages, in 63 (the same counts).
      const sample = `SELECT search_tsv FROM messages ORDER BY seq DESC LIMIT ${SAMPLE_SIZE}`;
      const { rows } = await this.pool.query<{ lexeme: string | null; n: number; length: number | null }>(`
        SELECT word AS lexeme, ndoc AS n, NULL::float8 AS length FROM ts_stat($1)
        UNION ALL SELECT NULL, count(*), avg(length(search_tsv))::float8 FROM (${sample}) s`, [sample]);
      const totals = rows.find((row) => row.lexeme === null)!;
      this.sample = {
        counts: new Map(rows.filter((row) => row.lexeme !== null).map((row) => [row.lexeme!, row.n])),
        size: totals.n,
        averageLength: Math.max(1, totals.length ?? 1),
        at: Date.now(),
      };
    })().finally(() => { this.sampling = null; });
    return this.sampling;
  }
}
