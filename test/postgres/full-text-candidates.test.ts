import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { openPostgresStorage, type PostgresStorage } from '../../src/adapters/postgres/postgres-storage.js';
import { balancedGroups, estimatedMatches, PostgresMessageSearch } from '../../src/adapters/postgres/postgres-message-search.js';
import { createPool, type Pool } from '../../src/adapters/postgres/postgres-pool.js';
import { naturalLanguageQuery } from '../../src/domain/full-text-query.js';
import { newId } from '../../src/domain/ids.js';
import type { ScoredKey, SearchFilter } from '../../src/domain/search.js';
import { POSTGRES_TARGETS, type PostgresDatabase } from '../helpers/postgres-servers.js';

/**
 * Full text on PostgreSQL ranks a bounded set of candidates (postgres-message-search.ts). On a store small enough
 * for every match to be a candidate it must give exactly what BM25 over every match gives, ties included; with a
 * tiny bound, every result must still carry the reference's score, in the reference's order.
 */
const CONTEXT_WEIGHT = 0.5;

/** BM25 of every match of the question's words, computed from scratch: exact document frequencies, every match scored. */
async function reference(pool: Pool, question: string, filter: { folder?: string }, limit: number): Promise<ScoredKey[]> {
  const words = question.toLowerCase().match(/[a-z]+/g)!;
  const { rows } = await pool.query<ScoredKey>(`
    WITH words AS (SELECT DISTINCT (SELECT lexeme FROM unnest(to_tsvector('english', w)) LIMIT 1) AS lexeme FROM unnest($1::text[]) w),
    corpus AS (SELECT count(*)::float8 AS n, avg(length(search_tsv))::float8 AS len FROM messages),
    df AS (SELECT lexeme, (SELECT count(*) FROM messages WHERE search_tsv @@ quote_literal(lexeme)::tsquery)::float8 AS n
      FROM words WHERE lexeme IS NOT NULL),
    scored AS (
      SELECT m.seq, df.lexeme, ln(1 + (corpus.n - df.n + 0.5) / (df.n + 0.5)) AS idf,
        ts_rank($2::float4[], m.search_tsv, quote_literal(df.lexeme)::tsquery, 0) / 0.6079271 AS tf,
        length(m.search_tsv) / corpus.len AS relative_length
      FROM messages m JOIN conversations c ON c.id = m.conversation_id CROSS JOIN df CROSS JOIN corpus
      WHERE ($3::text IS NULL OR c.folder = $3 OR c.folder LIKE $3 || '/%'))
    SELECT seq AS key, round(sum(idf * tf * 2.2 / (tf + 1.2 * (0.25 + 0.75 * relative_length)))::numeric, 9)::float8 AS score
    FROM scored WHERE tf > 0 GROUP BY seq ORDER BY score DESC, seq LIMIT $4`,
  [words, `{0,0,${CONTEXT_WEIGHT},1}`, filter.folder ?? null, limit]);
  return rows;
}

const QUESTIONS = [
  'Where did the walrus keeper travel in spring?',
  'What did the keeper say about the lighthouse?',
  'Which recipe uses saffron and fennel?',
  'anything about the harbour',
];

/** The messages of folder /a holding "fennel", newest first. */
async function newestFennelInA(pool: Pool): Promise<number[]> {
  const { rows } = await pool.query<{ seq: number }>(`SELECT m.seq FROM messages m JOIN conversations c ON c.id = m.conversation_id
    WHERE m.search_tsv @@ 'fennel'::tsquery AND c.folder = '/a' ORDER BY m.seq DESC`);
  return rows.map((row) => Number(row.seq));
}

function assertSameRanking(actual: ScoredKey[], expected: ScoredKey[], what: string): void {
  assert.deepEqual(actual.map((hit) => hit.key), expected.map((hit) => hit.key), `${what}: keys`);
  actual.forEach((hit, i) => assert.ok(Math.abs(hit.score - expected[i]!.score) < 1e-6, `${what}: score of ${hit.key}`));
}

test('the complete words split into groups of about equal matches, each word once, in the order given', () => {
  const documents = new Map([['walrus', 10], ['keeper', 3_000], ['travel', 2_500], ['spring', 400], ['fennel', 90]]);
  const groups = balancedGroups(['walrus', 'fennel', 'spring', 'travel', 'keeper'], documents, 2);
  assert.deepEqual(groups, [['keeper'], ['walrus', 'fennel', 'spring', 'travel']]);
  assert.deepEqual(balancedGroups(['walrus'], documents, 2), [['walrus']]);
  assert.deepEqual(balancedGroups([], documents, 2), []);
});

test('the messages holding any of several words are estimated as if the words were independent', () => {
  assert.equal(estimatedMatches([100_000, 100_000], 1_000_000), 190_000);
  assert.equal(estimatedMatches([5_000], 1_000_000), 5_000);
  assert.equal(estimatedMatches([2_000_000], 1_000_000), 1_000_000);
  assert.equal(estimatedMatches([], 1_000_000), 0);
});

for (const target of POSTGRES_TARGETS) {
  describe(`bounded full-text ranking (${target.name})`, () => {
    let database: PostgresDatabase;
    let storage: PostgresStorage;
    let pool: Pool;

    before(async () => {
      database = await target.open();
      storage = await openPostgresStorage({ url: database.url, poolSize: 2 });
      pool = createPool(database.url, 2);
      const policy = { maxMessagesPerConversation: 100, sessionGapMs: 60_000 };
      const topics = [
        'the walrus keeper went to travel north in spring', 'the lighthouse keeper kept the lamp burning',
        'a saffron risotto with fennel and lemon', 'fennel salad for spring', 'the harbour was quiet this morning',
        'we talked about travel plans again', 'keeper of the harbour lights', 'nothing much happened today',
      ];
      for (let c = 0; c < 12; c += 1) {
        // Identical conversations in two folders: their messages tie on every score.
        const messages = Array.from({ length: 6 }, (_, i) => ({ role: (i % 2 ? 'assistant' : 'user') as 'user' | 'assistant',
          content: `${topics[(c + i) % topics.length]}${i % 3 === 0 ? ' and the keeper again' : ''}` }));
        await storage.conversations.create({ id: newId(), label: 'l', folder: c % 2 ? '/a' : '/b', importanceScore: 5,
          now: '2026-01-01T00:00:00.000Z', messages: c >= 6 ? messages : messages.slice().reverse() }, policy);
      }
    });
    after(async () => {
      await pool?.end();
      await storage?.close();
      await database?.stop();
    });

    test('every match is a candidate on a small store: the same keys and scores as BM25 over every match, ties by key', async () => {
      for (const question of QUESTIONS) {
        for (const filter of [{}, { folder: '/a' }] as Array<{ folder?: string }>) {
          const words = naturalLanguageQuery(question)!;
          const actual = await storage.search.fullText(words, filter as SearchFilter, 20, { contextWeight: CONTEXT_WEIGHT });
          const expected = await reference(pool, question, filter, 20);
          assert.ok(expected.length > 0, question);
          assert.ok(new Set(expected.map((hit) => hit.score)).size < expected.length, `${question}: the store has ties`);
          assertSameRanking(actual, expected, `${question} ${JSON.stringify(filter)}`);
        }
      }
    });

    test('a filter checked per candidate (as a broad one is) ranks as the filter searched from its conversations', async () => {
      const perCandidate = new PostgresMessageSearch(pool, { maxScored: 1_000, narrowFilterMessages: 0 });
      for (const question of QUESTIONS) {
        const words = naturalLanguageQuery(question)!;
        const expected = await reference(pool, question, { folder: '/a' }, 20);
        const actual = await perCandidate.fullText(words, { folder: '/a', archived: false }, 20, { contextWeight: CONTEXT_WEIGHT });
        assertSameRanking(actual, expected, question);
      }
    });

    test('under a filter checked per candidate, the later words\' newest matches are the same found by the index or by walking', async () => {
      const searches = [0, 1_000_000].map((filteredIndexMatches) => new PostgresMessageSearch(pool,
        { maxScored: 8, narrowFilterMessages: 0, filteredIndexMatches }));
      // "fennel" is past a bound of 8 matches: its 8 newest matches the folder admits are ranked.
      const admitted = await newestFennelInA(pool);
      assert.ok(admitted.length > 8, `the folder holds more matches (${admitted.length}) than one search ranks`);
      const expected = (await reference(pool, 'fennel', { folder: '/a' }, 1_000)).filter((hit) => admitted.slice(0, 8).includes(hit.key)).slice(0, 6);
      for (const search of searches) {
        assertSameRanking(await search.fullText(naturalLanguageQuery('fennel')!, { folder: '/a' }, 6, { contextWeight: CONTEXT_WEIGHT }), expected, 'fennel');
      }
      // Filters on the conversation and on the message alike (a date range admits conversations through their messages).
      const filters: SearchFilter[] = [{ folder: '/a' }, { dateFrom: '2025-12-31T00:00:00.000Z' }, { folder: '/a', dateTo: '2026-12-31T00:00:00.000Z' }];
      for (const question of QUESTIONS) {
        for (const filter of filters) {
          const [walked, indexed] = await Promise.all(searches.map((search) =>
            search.fullText(naturalLanguageQuery(question)!, filter, 10, { contextWeight: CONTEXT_WEIGHT })));
          assert.ok(walked!.length > 0, question);
          assertSameRanking(indexed!, walked!, `${question} ${JSON.stringify(filter)}`);
        }
      }
    });

    test('under a filter checked per candidate, commoner words\' matches are walked for among the newest messages, or all if too few', async () => {
      const admitted = await newestFennelInA(pool);
      const newest = (await pool.query<{ newest: number }>('SELECT max(seq)::int AS newest FROM messages')).rows[0]!.newest;
      const everything = await reference(pool, 'fennel', { folder: '/a' }, 1_000);
      const bestOf = (keys: readonly number[]) => everything.filter((hit) => keys.includes(hit.key)).slice(0, 6);
      const search = (filteredWalkWindow: number) => new PostgresMessageSearch(pool,
        { maxScored: 8, narrowFilterMessages: 0, filteredIndexMatches: 0, filteredWalkWindow })
        .fullText(naturalLanguageQuery('fennel')!, { folder: '/a' }, 6, { contextWeight: CONTEXT_WEIGHT });
      // A window holding the 7 newest matches the folder admits: the best 6 of those, none older.
      assertSameRanking(await search(newest - admitted[7]!), bestOf(admitted.slice(0, 7)), 'a window of 7 matches');
      // A window holding 3, fewer than the 6 asked for: the best 6 of the 8 newest of all, as without a window.
      assertSameRanking(await search(newest - admitted[3]!), bestOf(admitted.slice(0, 8)), 'a window of 3 matches');
    });

    test('with a bound of a few matches, each result is a match with the reference score, in the reference order', async () => {
      const bounded = new PostgresMessageSearch(pool, { maxScored: 8 });
      for (const question of QUESTIONS) {
        const words = naturalLanguageQuery(question)!;
        const actual = await bounded.fullText(words, {}, 10, { contextWeight: CONTEXT_WEIGHT });
        const everything = await reference(pool, question, {}, 1_000);
        const scoreOf = new Map(everything.map((hit) => [hit.key, hit.score]));
        assert.ok(actual.length > 0 && actual.length <= 10, question);
        for (const hit of actual) assert.ok(Math.abs(hit.score - scoreOf.get(hit.key)!) < 1e-6, `${question}: ${hit.key}`);
        const inReferenceOrder = everything.filter((hit) => actual.some((found) => found.key === hit.key)).slice(0, actual.length);
        assertSameRanking(actual, inReferenceOrder, question);
      }
    });

    test('a message\'s full text, created or appended to, ranks as its own words (A) and its neighbours\' text (B) parsed', async () => {
      const policy = { maxMessagesPerConversation: 100, sessionGapMs: 60_000 };
      const texts = ['The keeper walks the walrus, and the walrus walks the keeper', 'a quiet harbour', 'lamps in the lighthouse',
        'saffron and fennel; the keeper again!', '', 'the end of the harbour story'];
      const says = (content: string) => ({ role: 'user' as const, content });
      const made = await storage.conversations.create({ id: newId(), label: 'tsv', folder: '/tsv', importanceScore: 5,
        now: '2026-01-01T00:00:00.000Z', messages: texts.slice(0, 2).map(says) }, policy);
      // Appends of one and of several messages: the last stored message gains a next neighbour each time.
      await storage.conversations.appendMessages(made.id, [says(texts[2]!)], '2026-01-01T00:01:00.000Z', policy);
      await storage.conversations.appendMessages(made.id, texts.slice(3).map(says), '2026-01-01T00:02:00.000Z', policy);
      const { rows } = await pool.query<{ position: number; lexeme: string; stored: number; parsed: number; same_weights: boolean }>(`
        WITH m AS (SELECT position, search_tsv AS stored,
            setweight(to_tsvector('english', content), 'A') || setweight(to_tsvector('english',
              coalesce(lag(content) OVER w, '') || E'\\n' || coalesce(lead(content) OVER w, '')), 'B') AS parsed
          FROM messages WHERE conversation_id = $1 WINDOW w AS (ORDER BY position))
        SELECT m.position, l.lexeme, ts_rank('{0,0,0.5,1}', m.stored, quote_literal(l.lexeme)::tsquery, 0) AS stored,
          ts_rank('{0,0,0.5,1}', m.parsed, quote_literal(l.lexeme)::tsquery, 0) AS parsed,
          (SELECT weights FROM unnest(m.stored) WHERE lexeme = l.lexeme) IS NOT DISTINCT FROM
            (SELECT weights FROM unnest(m.parsed) WHERE lexeme = l.lexeme) AS same_weights
        FROM m CROSS JOIN (SELECT DISTINCT lexeme FROM messages, unnest(search_tsv) WHERE conversation_id = $1) l
        ORDER BY m.position, l.lexeme`, [made.id]);
      assert.equal(new Set(rows.map((row) => row.position)).size, texts.length);
      assert.ok(rows.some((row) => row.stored > 0 && row.position === 1), 'neighbours\' words are held');
      for (const row of rows) {
        assert.ok(Math.abs(row.stored - row.parsed) < 1e-7 && row.same_weights, `message ${row.position}, "${row.lexeme}"`);
      }
    });

    test('the rarest word\'s matches are always candidates, however common the others are', async () => {
      const bounded = new PostgresMessageSearch(pool, { maxScored: 8 });
      const actual = await bounded.fullText(naturalLanguageQuery('saffron keeper travel harbour')!, {}, 100, { contextWeight: CONTEXT_WEIGHT });
      const { rows } = await pool.query<{ seq: number }>(`SELECT seq FROM messages WHERE search_tsv @@ 'saffron'::tsquery ORDER BY seq`);
      assert.ok(rows.length > 0);
      const found = new Set(actual.map((hit) => hit.key));
      for (const row of rows) assert.ok(found.has(row.seq), `message ${row.seq}, which holds "saffron", is ranked`);
    });
  });
}
