import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import BetterSqlite3, { type Database } from 'better-sqlite3';
import { naturalLanguageQuery, parseFullTextQuery } from '../../domain/full-text-query.js';
import { FTS_CONTEXT_WEIGHT } from '../../features/search/fts-query.js';
import { SearchService, type SearchServiceDeps } from '../../features/search/search.service.js';
import { newId } from '../../domain/ids.js';
import type { ScoredKey, SearchFilter } from '../../domain/search.js';
import type { Storage } from '../../ports/storage.js';
import { allPhrases, DENSE_SCORE, densePhrases } from './sqlite-dense-phrases.js';
import { toFts5Match } from './sqlite-fts-query.js';
import { SqliteMessageSearch } from './sqlite-message-search.js';
import { StatementCache } from './sqlite-statements.js';
import { DATABASE_FILE, openSqliteStorage } from './sqlite-storage.js';

/** Scored at most per query in these tests: the store (160 messages) is 8 times larger. */
const MAX_SCORED = 20;
const MESSAGES = 160;
const FILLER = ['alpha', 'bravo', 'charlie', 'delta', 'echo', 'foxtrot', 'golf', 'hotel'];

/**
 * Message i: "common" in 4 of 5 (a dense word: FTS5 floors its idf), "rare" in 1 of 9 (fewer than are scored) and said 1-3 times,
 * "common" twice in every third message, and a varying number of filler words so lengths differ.
 */
function content(i: number): string {
  const words = FILLER.slice(0, 1 + (i % FILLER.length));
  if (i % 5 !== 0) words.push('common');
  if (i % 3 === 0 && i % 5 !== 0) words.push('common');
  if (i % 9 === 0) for (let n = 0; n <= i % 3; n += 1) words.push('rare');
  return words.join(' ');
}

describe('sqlite full text: dense phrases are not counted, and the ranking stays bm25()', () => {
  let dir: string;
  let storage: Storage;
  let db: Database;
  let search: SqliteMessageSearch;
  let keys: number[];
  const folderOf = (i: number) => (i % 4 === 0 ? '/quarter' : '/rest');

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'memsvc-fts-dense-'));
    storage = openSqliteStorage(dir);
    // One message a conversation, so the context column (neighbours' words) is empty and scores are the message's own.
    for (let i = 0; i < MESSAGES; i += 1) {
      await storage.conversations.create({
        id: newId(), label: `c${i}`, folder: folderOf(i), importanceScore: 5,
        messages: [{ role: 'user', content: content(i), timestamp: new Date(Date.UTC(2026, 0, 1, 0, i)).toISOString() }],
        now: new Date(Date.UTC(2026, 0, 1, 0, i)).toISOString(),
      }, { maxMessagesPerConversation: 10, sessionGapMs: 30 * 60_000 });
    }
    db = new BetterSqlite3(join(dir, DATABASE_FILE));
    search = new SqliteMessageSearch(db, MAX_SCORED);
    keys = db.prepare('SELECT seq FROM messages ORDER BY seq').pluck().all() as number[];
    assert.equal(keys.length, MESSAGES);
  });

  after(async () => {
    db.close();
    await storage.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const indexOf = (key: number) => keys.indexOf(key);
  /** FTS5's own bm25() over every match of the query's own words, best first. */
  const exact = (query: string): ScoredKey[] => db.prepare(`SELECT rowid AS key, -bm25(messages_fts, 1.0, 0) AS score
    FROM messages_fts WHERE messages_fts MATCH ? ORDER BY score DESC, rowid`)
    .all(`content : (${toFts5Match(parseFullTextQuery(query))})`) as ScoredKey[];
  const newestFirst = (predicate: (i: number) => boolean) =>
    keys.filter((_, i) => predicate(i)).reverse();

  test('a word in most messages, with more matches than are scored, is dense; a rarer one is not', () => {
    const phrases = allPhrases(parseFullTextQuery('common OR rare OR comm* NOT alpha'));
    const dense = densePhrases(new StatementCache(db), phrases, (phrase) => `content : (${toFts5Match(phrase)})`, MAX_SCORED);
    assert.deepEqual(phrases.filter((phrase) => dense.has(phrase)).map((phrase) => toFts5Match(phrase)), ['"common"', '"comm"*', '"alpha"']);
  });

  test('nothing is dense while the store holds fewer messages than are scored: a small store keeps exact bm25()', () => {
    const dense = densePhrases(new StatementCache(db), allPhrases(parseFullTextQuery('common')),
      (phrase) => `content : (${toFts5Match(phrase)})`, MESSAGES * 2);
    assert.equal(dense.size, 0);
  });

  test('a dense word alone: its newest matches, newest first, each with the floor score', async () => {
    const found = await search.fullText(parseFullTextQuery('common'), {}, 10);
    assert.deepEqual(found.map((item) => item.key), newestFirst((i) => i % 5 !== 0).slice(0, 10));
    assert.ok(found.every((item) => item.score === DENSE_SCORE));
  });

  test('a dense prefix is handled like a dense word', async () => {
    const found = await search.fullText(parseFullTextQuery('comm*'), {}, 5);
    assert.deepEqual(found.map((item) => item.key), newestFirst((i) => i % 5 !== 0).slice(0, 5));
  });

  test('OR with a dense word: the other word\'s matches by bm25() as FTS5 scores the whole query, then the newest dense-only matches', async () => {
    const found = await search.fullText(parseFullTextQuery('common OR rare'), {}, 40);
    const reference = new Map(exact('common OR rare').map((item) => [item.key, item.score]));
    const withRare = found.filter((item) => content(indexOf(item.key)).includes('rare'));
    assert.equal(withRare.length, keys.filter((_, i) => i % 9 === 0).length, 'every message with the rare word first');
    assert.deepEqual(found.slice(0, withRare.length), withRare);
    for (const item of withRare) {
      // FTS5 adds the dense word's floored share (idf 1e-6), nothing more.
      assert.ok(Math.abs(item.score - reference.get(item.key)!) < 1e-5, `key ${item.key}: ${item.score} vs ${reference.get(item.key)}`);
    }
    for (let i = 1; i < withRare.length; i += 1) assert.ok(withRare[i - 1]!.score >= withRare[i]!.score);
    const rest = found.slice(withRare.length);
    assert.deepEqual(rest.map((item) => item.key), newestFirst((i) => i % 5 !== 0 && i % 9 !== 0).slice(0, 40 - withRare.length));
    assert.ok(rest.every((item) => item.score === DENSE_SCORE));
  });

  test('AND with a dense word: only messages holding both, ranked by the other word', async () => {
    const found = await search.fullText(parseFullTextQuery('common rare'), {}, 50);
    const both = keys.filter((_, i) => i % 5 !== 0 && i % 9 === 0);
    assert.deepEqual(new Set(found.map((item) => item.key)), new Set(both));
    const reference = new Map(exact('common rare').map((item) => [item.key, item.score]));
    for (const item of found) assert.ok(Math.abs(item.score - reference.get(item.key)!) < 1e-5);
  });

  test('NOT a dense word: no match holds it', async () => {
    const found = await search.fullText(parseFullTextQuery('rare NOT common'), {}, 50);
    assert.deepEqual(new Set(found.map((item) => item.key)), new Set(keys.filter((_, i) => i % 9 === 0 && i % 5 === 0)));
  });

  test('under a filter: only admitted messages, the newest of them for a dense word', async () => {
    const filter: SearchFilter = { folder: '/quarter' };
    const dense = await search.fullText(parseFullTextQuery('common'), filter, 10);
    assert.deepEqual(dense.map((item) => item.key), newestFirst((i) => i % 5 !== 0 && folderOf(i) === '/quarter').slice(0, 10));
    const mixed = await search.fullText(parseFullTextQuery('rare OR common'), filter, 100);
    assert.ok(mixed.every((item) => folderOf(indexOf(item.key)) === '/quarter'));
    assert.equal(mixed.length, keys.filter((_, i) => (i % 5 !== 0 || i % 9 === 0) && folderOf(i) === '/quarter').length);
  });

  test('a small scope ranks its own matches: the same answer as ranking every match and keeping the admitted ones', async () => {
    // Both rank every match (nothing is dense when all are scored); one through the scope, one through the store.
    const throughScope = new SqliteMessageSearch(db, 1_000_000);
    const throughStore = new SqliteMessageSearch(db, 1_000_000, 0);
    const options = { contextWeight: 0 };
    for (const folder of ['/quarter', '/rest']) {
      for (const query of ['rare', 'rare OR alpha', 'charlie OR rare OR hotel', 'common']) {
        const parsed = parseFullTextQuery(query);
        assert.deepEqual(await throughScope.fullText(parsed, { folder }, 10, options),
          await throughStore.fullText(parsed, { folder }, 10, options), `${query} in ${folder}`);
        // Re-scored with the scope's own term statistics: the same through either path.
        const scoped = { contextWeight: 0, scopedStatistics: true };
        assert.deepEqual(await throughScope.fullText(parsed, { folder }, 10, scoped),
          await throughStore.fullText(parsed, { folder }, 10, scoped), `${query} in ${folder}, scoped statistics`);
      }
      // A word that is not dense: exactly bm25() over the admitted matches.
      const admitted = exact('rare').filter((item) => folderOf(indexOf(item.key)) === folder).slice(0, 10);
      const small = await search.fullText(parseFullTextQuery('rare'), { folder }, 10, options);
      assert.deepEqual(small.map((item) => item.key), admitted.map((item) => item.key), `bm25() over the admitted matches in ${folder}`);
    }
    assert.deepEqual(await search.fullText(parseFullTextQuery('rare'), { folder: '/nowhere' }, 10, options), []);
  });

  test('a small scope finds the newest matches of a dense word as the store does: the same keys, newest first', async () => {
    const throughStore = new SqliteMessageSearch(db, MAX_SCORED, 0);
    for (const folder of ['/quarter', '/rest']) {
      for (const [query, limit] of [['common', 10], ['common', 100], ['rare OR common', 100]] as const) {
        const parsed = parseFullTextQuery(query);
        const scoped = { contextWeight: 0, scopedStatistics: true };
        const inScope = await search.fullText(parsed, { folder }, limit, scoped);
        assert.ok(inScope.some((item) => item.score === DENSE_SCORE), `${query} in ${folder}: newest dense matches fill the list`);
        assert.deepEqual(inScope, await throughStore.fullText(parsed, { folder }, limit, scoped), `${query} in ${folder}`);
      }
    }
  });

  test('a lower common share leaves a word in 3 of 8 messages out of scoring: the rarer word ranks, then the newest matches', async () => {
    // "foxtrot" (3 of 8, 60 matches) is common under 0.25; "rare" (1 of 9, 18 matches) is not.
    const query = parseFullTextQuery('foxtrot OR rare');
    const found = await search.fullText(query, {}, 30, { contextWeight: 0, commonShare: 0.25 });
    const byRare = exact('rare');
    const ranked = new Set(byRare.map((item) => item.key));
    const newest = newestFirst((i) => i % FILLER.length >= 5 || i % 9 === 0).filter((key) => !ranked.has(key))
      .slice(0, 30 - byRare.length).map((key) => ({ key, score: DENSE_SCORE }));
    assert.deepEqual(found, [...byRare, ...newest]);
    // Positive control: at the default share (BM25's floor) "foxtrot" is scored, and the ranking differs.
    const scored = await search.fullText(query, {}, 30, { contextWeight: 0 });
    assert.equal(scored.length, 30);
    assert.notDeepEqual(scored.map((item) => item.key), found.map((item) => item.key));
    assert.ok(scored.every((item) => item.score > DENSE_SCORE));
  });

  test('keyword recall for a question ranks by its rarer words: a word in more than a tenth of the messages only follows', async () => {
    // Only the reader takes part in keyword recall.
    const service = new SearchService({ reader: search } as unknown as SearchServiceDeps);
    const depth = 40;
    const found = (await service.keywordRanking('foxtrot rare?', {}, depth)).map((item) => item.key);
    const isRare = (i: number) => i % 9 === 0;
    const rare = keys.filter((_, i) => isRare(i));
    assert.deepEqual(new Set(found.slice(0, rare.length)), new Set(rare));
    const tail = newestFirst((i) => i % FILLER.length >= 5 && !isRare(i)).slice(0, depth - rare.length);
    assert.deepEqual(found.slice(rare.length), tail);
    // Positive control: scoring "foxtrot" (BM25's own floor) orders the tail by score, not by age.
    const scored = (await search.fullText(naturalLanguageQuery('foxtrot rare?')!, {}, depth, { contextWeight: FTS_CONTEXT_WEIGHT }))
      .map((item) => item.key);
    assert.notDeepEqual(scored.slice(rare.length), tail);
  });

  test('a query with more matches than are scored ranks exactly its newest matches', async () => {
    // "foxtrot" is in 3 of 8 messages (not dense), 60 in all: its newest MAX_SCORED matches are ranked
    // by bm25(), over the rowid bound FTS5 is given.
    const found = await search.fullText(parseFullTextQuery('foxtrot'), {}, 10);
    const newest = new Set(newestFirst((i) => i % FILLER.length >= 5).slice(0, MAX_SCORED));
    const expected = exact('foxtrot').filter((item) => newest.has(item.key)).slice(0, 10);
    assert.equal(found.length, 10);
    assert.deepEqual(found, expected);
  });
});
