import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { MessageInput } from '../../src/domain/conversation.js';
import { parseFullTextQuery, naturalLanguageQuery } from '../../src/domain/full-text-query.js';
import { ConflictError } from '../../src/domain/errors.js';
import { newId } from '../../src/domain/ids.js';
import type { SearchFilter } from '../../src/domain/search.js';
import { VectorIndexHolder } from '../../src/vector-index/vector-index.holder.js';
import type { Storage } from '../../src/ports/storage.js';
import type { Logger } from '../../src/ports/logger.js';
import type { ImportedConversation } from '../../src/ports/conversation-archive.js';
import { waitFor } from '../helpers/wait-for.js';

/** What the contract needs from a driver: a fresh, empty store per test. */
export interface ContractDriver {
  name: string;
  /** `exactMaxCandidates: 0` sends every filtered vector search through the index path. */
  open(options?: { exactMaxCandidates?: number }): Promise<Storage>;
  /** Claims on embedding jobs exclude other workers until their lease lapses (a database shared by replicas). */
  claimsExclude: boolean;
}

const quiet: Logger = { debug() {}, info() {}, warn() {}, error() {} };
const policy = { maxMessagesPerConversation: 50, sessionGapMs: 30 * 60_000 };
const T0 = '2026-05-01T10:00:00.000Z';
const at = (minutes: number) => new Date(Date.parse(T0) + minutes * 60_000).toISOString();

async function withStorage(driver: ContractDriver, work: (storage: Storage) => Promise<void>,
  options?: { exactMaxCandidates?: number }): Promise<void> {
  const storage = await driver.open(options);
  try {
    await work(storage);
  } finally {
    await storage.close();
  }
}

async function create(storage: Storage, fields: { label?: string; folder?: string; importance?: number; messages?: MessageInput[]; now?: string } = {}) {
  return storage.conversations.create({
    id: newId(),
    label: fields.label ?? 'chat',
    folder: fields.folder ?? '/',
    importanceScore: fields.importance ?? 5,
    messages: fields.messages ?? [],
    now: fields.now ?? T0,
  }, policy);
}

const says = (content: string, minutes = 0, role: MessageInput['role'] = 'user'): MessageInput => ({ role, content, timestamp: at(minutes) });

/** Embeds every pending message with `vectorOf`, the way the worker does (claim, record model, complete, index). */
async function embedAll(storage: Storage, vectorOf: (content: string) => number[]) {
  const holder = new VectorIndexHolder(storage.embeddings, storage.openLocalIndex, quiet);
  await holder.start();
  for (;;) {
    const batch = await storage.embeddings.claimPending(100, 60_000);
    if (batch.length === 0) break;
    const vectors = batch.map((message) => normalize(vectorOf(message.content)));
    assert.ok(await holder.accept({ model: 'test-model', dimension: vectors[0]!.length }));
    const stored = await storage.embeddings.complete('test-model', batch.map((message, i) => ({ key: message.key, vector: vectors[i]! })));
    const kept = new Set(stored);
    const items = batch.map((message, i) => ({ key: message.key, vector: vectors[i]! })).filter((item) => kept.has(item.key));
    await holder.current().index?.add(items.map((item) => item.key), items.map((item) => item.vector));
  }
  await holder.caughtUp();
  return { holder, vectors: storage.vectorSearch(() => holder.current().index) };
}

const normalize = (values: number[]) => {
  const norm = Math.hypot(...values) || 1;
  return Float32Array.from(values, (value) => value / norm);
};

/**
 * Four vectors in a graph that holds them all (its size says so) but whose searches never reach "northeast", the
 * nearest to the question: the contents found, best first.
 */
async function searchPastUnreachable(storage: Storage): Promise<string[]> {
  const directions: Record<string, number[]> = { north: [0, 1, 0], east: [1, 0, 0], up: [0, 0, 1], northeast: [1, 1, 0] };
  await create(storage, { messages: [says('north'), says('east'), says('up'), says('northeast')] });
  const { holder } = await embedAll(storage, (content) => directions[content]!);
  try {
    const [lost] = (await storage.search.fullText(parseFullTextQuery('northeast')!, {}, 1)).map((hit) => hit.key);
    const graph = holder.current().index!;
    const unreachable = Object.assign(Object.create(graph) as typeof graph, {
      search: async (query: Float32Array, k: number) => (await graph.search(query, k)).filter((hit) => hit.key !== lost),
    });
    const found = await storage.vectorSearch(() => unreachable).nearest(normalize([0.9, 1, 0]), {}, 4);
    return (await storage.search.hydrate(found.map((item) => item.key))).map((hit) => hit.content);
  } finally {
    await holder.close();
  }
}

/**
 * Every storage behaviour the service relies on, run against each driver
 * (test/contract/*.contract.test.ts). Drivers differ only where the contract
 * says so (claimsExclude).
 */
export function storageContract(driver: ContractDriver): void {
  describe(`storage contract: ${driver.name}`, () => {
    test('create stores messages in order with counters, sessions and timestamps', () => withStorage(driver, async (storage) => {
      const conversation = await create(storage, {
        label: 'Trip', folder: '/travel', messages: [says('Planning a trip to Lisbon', 0), says('Sounds fun', 5, 'assistant'), says('Back after lunch', 120)],
      });
      assert.equal(conversation.messageCount, 3);
      assert.equal(conversation.wordCount, 10);
      assert.equal(conversation.sessionCount, 2);
      assert.equal(conversation.lastMessageAt, at(120));
      assert.equal(conversation.folder, '/travel');
      assert.deepEqual(await storage.conversations.get(conversation.id), conversation);
      const page = await storage.conversations.listMessages(conversation.id, { offset: 1, limit: 5 });
      assert.equal(page.total, 3);
      assert.deepEqual(page.items.map((m) => [m.position, m.role, m.content, m.embeddingStatus]),
        [[1, 'assistant', 'Sounds fun', 'pending'], [2, 'user', 'Back after lunch', 'pending']]);
      assert.equal(await storage.conversations.get(newId()), null);
    }));

    test('append continues positions and counters; over the limit it fails and leaves nothing', () => withStorage(driver, async (storage) => {
      const conversation = await create(storage, { messages: [says('one', 0)] });
      const appended = await storage.conversations.appendMessages(conversation.id,
        [{ role: 'user', content: 'two words', metadata: { source: 'test', nested: { n: 1 } } }], at(10), policy);
      assert.ok(appended);
      assert.equal(appended.conversation.messageCount, 2);
      assert.equal(appended.conversation.updatedAt, at(10));
      assert.deepEqual(appended.messages.map((m) => [m.position, m.timestamp, m.metadata]), [[1, at(10), { source: 'test', nested: { n: 1 } }]]);
      const tooMany = Array.from({ length: 49 }, (_, i) => says(`m${i}`, 20));
      await assert.rejects(storage.conversations.appendMessages(conversation.id, tooMany, at(20), policy), { code: 'TOO_MANY_MESSAGES' });
      const after = await storage.conversations.get(conversation.id);
      assert.equal(after!.messageCount, 2, 'the failed append stored nothing');
      assert.equal((await storage.conversations.listMessages(conversation.id, { offset: 0, limit: 100 })).items.length, 2);
      assert.equal(await storage.conversations.appendMessages(newId(), [says('x')], T0, policy), null);
    }));

    test('list filters folder subtrees, labels, pinned and archived; sorts, pages and counts', () => withStorage(driver, async (storage) => {
      const a = await create(storage, { label: 'b-label', folder: '/work', importance: 10, now: at(1) });
      const b = await create(storage, { label: 'a-label', folder: '/work/backend', now: at(2) });
      const c = await create(storage, { label: 'a-label', folder: '/work-notes', now: at(3) });
      await create(storage, { label: 'c-label', folder: '/home', importance: 2, now: at(4) });
      const ids = async (request: Partial<Parameters<Storage['conversations']['list']>[0]>) =>
        (await storage.conversations.list({ offset: 0, limit: 10, filter: {}, sort: 'created_at', order: 'asc', ...request })).items.map((x) => x.id);
      assert.deepEqual(await ids({ filter: { folder: '/work' } }), [a.id, b.id], '/work-notes is not under /work');
      assert.deepEqual(await ids({ filter: { label: 'a-label' }, order: 'desc' }), [c.id, b.id]);
      assert.deepEqual(await ids({ filter: { pinned: true } }), [a.id]);
      const tie = [b.id, c.id].sort();
      assert.deepEqual((await ids({ sort: 'label' })).slice(0, 3), [...tie, a.id], 'by label, ties by id');
      assert.deepEqual((await ids({ sort: 'label', order: 'desc' })).slice(1), [a.id, ...tie.reverse()]);
      const page = await storage.conversations.list({ offset: 1, limit: 2, filter: {}, sort: 'updated_at', order: 'desc' });
      assert.equal(page.total, 4);
      assert.deepEqual(page.items.map((x) => x.id), [c.id, b.id]);
      const unknown = newId();
      assert.deepEqual(await storage.conversations.setStatusMany([a.id, unknown], 'archived', at(9)), [unknown]);
      assert.equal((await storage.conversations.get(a.id))!.status, 'active', 'an unknown id archives nothing');
      assert.deepEqual(await storage.conversations.setStatusMany([a.id, b.id], 'archived', at(9)), []);
      assert.deepEqual(await ids({ filter: { archived: true } }), [a.id, b.id]);
      assert.equal(await storage.conversations.count({ archived: false }), 2);
      assert.equal(await storage.conversations.count({ folder: '/work' }), 2);
      assert.deepEqual(await storage.conversations.folderCounts(),
        [{ folder: '/home', count: 1 }, { folder: '/work', count: 1 }, { folder: '/work-notes', count: 1 }, { folder: '/work/backend', count: 1 }]);
      const byLabel = await storage.conversations.groupStats({}, 'label');
      assert.deepEqual(byLabel[0], { key: 'a-label', count: 2, averageImportance: 5 });
    }));

    test('update, touch and delete; delete returns the message keys and removes everything of it', () => withStorage(driver, async (storage) => {
      const conversation = await create(storage, { messages: [says('alpha beta'), says('gamma')] });
      assert.equal(await storage.conversations.update(conversation.id, { label: 'renamed', folder: '/x', importanceScore: 9 }, at(5)), true);
      assert.equal(await storage.conversations.update(newId(), { label: 'nobody' }, at(5)), false);
      await storage.conversations.touch(conversation.id, at(6));
      const updated = (await storage.conversations.get(conversation.id))!;
      assert.deepEqual([updated.label, updated.folder, updated.importanceScore, updated.updatedAt, updated.lastAccessedAt],
        ['renamed', '/x', 9, at(5), at(6)]);
      const keys = (await storage.embeddings.claimPending(10, 60_000)).map((m) => m.key);
      const removed = await storage.conversations.delete(conversation.id);
      assert.deepEqual([...removed!].sort((x, y) => x - y), keys);
      assert.equal(await storage.conversations.get(conversation.id), null);
      assert.equal(await storage.conversations.delete(conversation.id), null);
      assert.deepEqual(await storage.search.hydrate(keys), []);
      assert.deepEqual(await storage.search.fullText(parseFullTextQuery('alpha'), {}, 10), []);
      assert.deepEqual((await storage.conversations.totals()).messages, 0);
    }));

    test('the embedding queue hands out pending work in order, stores vectors and counts', () => withStorage(driver, async (storage) => {
      await create(storage, { messages: [says('first'), says('second'), says('third')] });
      const batch = await storage.embeddings.claimPending(2, 60_000);
      assert.deepEqual(batch.map((m) => ({ ...m, key: typeof m.key })),
        [{ key: 'number', content: 'first', attempts: 0 }, { key: 'number', content: 'second', attempts: 0 }]);
      assert.deepEqual(await storage.embeddings.counts(), { pending: 3, done: 0, failed: 0 });
      assert.deepEqual(await storage.embeddings.recordModel({ model: 'test-model', dimension: 3 }), { model: 'test-model', dimension: 3 });
      assert.deepEqual(await storage.embeddings.recordModel({ model: 'other', dimension: 5 }), { model: 'test-model', dimension: 3 },
        'the first recorded model wins');
      const stored = await storage.embeddings.complete('test-model', [{ key: batch[0]!.key, vector: normalize([1, 0, 0]) }]);
      assert.deepEqual(stored, [batch[0]!.key]);
      assert.deepEqual(await storage.embeddings.counts(), { pending: 2, done: 1, failed: 0 });
      assert.equal((await storage.conversations.totals()).embeddedMessages, 1);
      const keys = [];
      for await (const page of storage.embeddings.vectorKeys(10)) keys.push(...page);
      assert.deepEqual(keys, [batch[0]!.key], 'only the embedded message has a vector');
      const vectors = await storage.embeddings.vectorsByKey([batch[1]!.key, batch[0]!.key]);
      assert.deepEqual(vectors.map((v) => [v.key, Array.from(v.vector).map((x) => Math.round(x * 1000) / 1000)]), [[batch[0]!.key, [1, 0, 0]]]);
      await storage.embeddings.recordFailure([batch[1]!.key], 'bridge said no', 2);
      assert.deepEqual(await storage.embeddings.counts(), { pending: 2, done: 1, failed: 0 });
      await storage.embeddings.recordFailure([batch[1]!.key], 'bridge said no', 2);
      assert.deepEqual(await storage.embeddings.counts(), { pending: 1, done: 1, failed: 1 });
      assert.equal(await storage.embeddings.pendingCount(), 1, 'pending alone agrees with counts()');
      assert.equal(await storage.embeddings.resetAll(), 3, 'the reset says how many messages it marked');
      assert.deepEqual(await storage.embeddings.counts(), { pending: 3, done: 0, failed: 0 });
      assert.equal(await storage.embeddings.recordedModel(), null);
    }));

    test('claimed messages handed back are claimed again at once; done ones stay done', () => withStorage(driver, async (storage) => {
      await create(storage, { messages: [says('first'), says('second'), says('third')] });
      const first = await storage.embeddings.claimPending(2, 60_000);
      await storage.embeddings.recordModel({ model: 'test-model', dimension: 3 });
      await storage.embeddings.complete('test-model', [{ key: first[0]!.key, vector: normalize([1, 0, 0]) }]);
      await storage.embeddings.release(first.map((message) => message.key));
      // Without the release, a store with leases (PostgreSQL) hands out only the third until a minute has passed.
      const again = await storage.embeddings.claimPending(3, 60_000);
      assert.deepEqual(again.map((message) => message.content), ['second', 'third']);
      assert.deepEqual(await storage.embeddings.counts(), { pending: 2, done: 1, failed: 0 });
    }));

    test('a stored vector reads back bit for bit, and a batch stores each vector with its own message', () => withStorage(driver, async (storage) => {
      await create(storage, { messages: [says('one'), says('two'), says('three')] });
      const batch = await storage.embeddings.claimPending(3, 60_000);
      await storage.embeddings.recordModel({ model: 'test-model', dimension: 3 });
      // Values a decimal form rounds easily: a third, the smallest normal float4, and a large negative (within halfvec's
      // range, as a graph over halfvec needs).
      const given = batch.map((message, i) => ({ key: message.key,
        vector: Float32Array.from([1 / 3 + i, 1.1754943508222875e-38, -12_345.678 * (i + 1)]) }));
      assert.deepEqual(await storage.embeddings.complete('test-model', given), batch.map((message) => message.key));
      const read = await storage.embeddings.vectorsByKey(batch.map((message) => message.key));
      const bits = (vector: Float32Array) => Array.from(new Uint32Array(vector.buffer, vector.byteOffset, vector.length));
      assert.deepEqual(read.map((v) => [v.key, bits(v.vector)]), given.map((v) => [v.key, bits(v.vector)]));
    }));

    test('the oldest pending message is the first to arrive; its timestamp is reported', () => withStorage(driver, async (storage) => {
      assert.equal(await storage.embeddings.oldestPendingTimestamp(), null);
      await create(storage, { messages: [says('a1', 5), says('a2', 6)] });
      await create(storage, { messages: [says('b1', 1)] });
      assert.equal(await storage.embeddings.oldestPendingTimestamp(), at(5), 'by arrival, not by timestamp');
      const first = await storage.embeddings.claimPending(2, 60_000);
      await storage.embeddings.complete('test-model', first.map((message) => ({ key: message.key, vector: normalize([1, 0, 0]) })));
      assert.equal(await storage.embeddings.oldestPendingTimestamp(), at(1));
      const rest = await storage.embeddings.claimPending(10, 60_000);
      await storage.embeddings.complete('test-model', rest.map((message) => ({ key: message.key, vector: normalize([1, 0, 0]) })));
      assert.equal(await storage.embeddings.oldestPendingTimestamp(), null);
    }));

    test('completing a deleted message stores nothing', () => withStorage(driver, async (storage) => {
      const conversation = await create(storage, { messages: [says('soon gone')] });
      const [message] = await storage.embeddings.claimPending(1, 60_000);
      await storage.embeddings.recordModel({ model: 'test-model', dimension: 2 });
      await storage.conversations.delete(conversation.id);
      assert.deepEqual(await storage.embeddings.complete('test-model', [{ key: message!.key, vector: normalize([1, 1]) }]), []);
    }));

    if (driver.claimsExclude) {
      test('a claim excludes other workers until its lease lapses', () => withStorage(driver, async (storage) => {
        await create(storage, { messages: [says('a'), says('b'), says('c')] });
        const first = await storage.embeddings.claimPending(2, 60_000);
        const second = await storage.embeddings.claimPending(5, 60_000);
        assert.deepEqual([first.length, second.length], [2, 1]);
        assert.equal(new Set([...first, ...second].map((m) => m.key)).size, 3);
        assert.deepEqual(await storage.embeddings.claimPending(5, 60_000), []);
        const lapsing = await create(storage, { messages: [says('d')] });
        assert.equal((await storage.embeddings.claimPending(5, 1)).length, 1);
        const retaken = await waitFor(() => storage.embeddings.claimPending(5, 60_000),
          { what: 'the 1 ms lease on "d" to lapse', until: (claimed) => claimed.length > 0 });
        assert.deepEqual(retaken.map((m) => m.content), ['d'], 'a lapsed lease is claimed again');
        void lapsing;
      }));
    }

    test('full text: words, stemming, phrases, prefixes, AND, OR, NOT; own words vs neighbours', () => withStorage(driver, async (storage) => {
      await create(storage, { folder: '/books', messages: [
        says('What did you take away from Becoming Nicole?'),
        says('It taught me self-acceptance and courage.', 1, 'assistant'),
        says('I painted a sunrise over the lake', 2),
        says('Planning the migration to Postgres', 3, 'assistant'),
      ] });
      const contents = async (query: string, options?: { contextWeight: number }, filter: SearchFilter = {}) => {
        const keys = (await storage.search.fullText(parseFullTextQuery(query), filter, 10, options)).map((hit) => hit.key);
        return (await storage.search.hydrate(keys)).map((hit) => hit.content.split(' ')[0]);
      };
      assert.deepEqual(await contents('painting'), ['I'], 'stemming: painting finds painted');
      assert.deepEqual(await contents('"self acceptance"'), ['It']);
      assert.deepEqual(await contents('"acceptance self"'), []);
      assert.deepEqual(await contents('migra*'), ['Planning']);
      assert.deepEqual(await contents('sunrise AND lake'), ['I']);
      assert.deepEqual(await contents('sunrise AND nicole'), []);
      assert.deepEqual((await contents('sunrise OR postgres')).sort(), ['I', 'Planning']);
      assert.deepEqual(await contents('(sunrise OR postgres) NOT lake'), ['Planning']);
      assert.deepEqual(await contents('nicole'), ['What'], 'without context only the message\'s own words match');
      const withContext = await contents('nicole', { contextWeight: 0.5 });
      assert.deepEqual(withContext, ['What', 'It'], 'the reply is found through its neighbour, ranked below the message that says it');
      assert.deepEqual(await contents('sunrise', undefined, { folder: '/other' }), []);
    }));

    test('full text ranks rarer and more frequent words higher (BM25)', () => withStorage(driver, async (storage) => {
      const filler = Array.from({ length: 8 }, (_, i) => says(`we talked about the weather again ${i}`, i));
      await create(storage, { messages: [...filler, says('the weather and my kayak trip', 10), says('kayak kayak kayak lessons', 11)] });
      const ranking = await storage.search.fullText(naturalLanguageQuery('weather kayak')!, {}, 10);
      const hits = await storage.search.hydrate(ranking.map((r) => r.key));
      assert.equal(hits.length, 10);
      assert.ok(hits[0]!.content.includes('kayak') && hits[1]!.content.includes('kayak'), 'both kayak messages outrank the common word');
      assert.ok(ranking.every((r, i) => i === 0 || r.score <= ranking[i - 1]!.score) && ranking[0]!.score > 0);
    }));

    test('search filters: folder, label, importance, dates, archived, excluded folders', () => withStorage(driver, async (storage) => {
      const work = await create(storage, { label: 'work', folder: '/work', importance: 8, messages: [says('deploy notes', 0)] });
      await create(storage, { label: 'home', folder: '/home', importance: 3, messages: [says('deploy the garden', 60)] });
      const match = async (filter: SearchFilter) => (await storage.search.hydrate(
        (await storage.search.fullText(parseFullTextQuery('deploy'), filter, 10)).map((r) => r.key))).map((h) => h.folder).sort();
      assert.deepEqual(await match({}), ['/home', '/work']);
      assert.deepEqual(await match({ folder: '/work' }), ['/work']);
      assert.deepEqual(await match({ label: 'home' }), ['/home']);
      assert.deepEqual(await match({ importanceMin: 5 }), ['/work']);
      assert.deepEqual(await match({ importanceMax: 5 }), ['/home']);
      assert.deepEqual(await match({ dateFrom: at(30) }), ['/home']);
      assert.deepEqual(await match({ dateTo: at(30) }), ['/work']);
      assert.deepEqual(await match({ excludedFolders: ['/home'] }), ['/work']);
      // Clauses that leave nothing out (nothing archived yet, a folder that holds nothing) admit everything.
      assert.deepEqual(await match({ archived: false, excludedFolders: ['/nowhere'] }), ['/home', '/work']);
      assert.deepEqual(await match({ archived: true }), []);
      assert.deepEqual(await match({ excludedFolders: ['/'] }), []);
      await storage.conversations.setStatusMany([work.id], 'archived', at(70));
      assert.deepEqual(await match({ archived: true }), ['/work']);
      assert.deepEqual(await match({ archived: false }), ['/home']);
      assert.deepEqual(await match({ archived: false, excludedFolders: ['/nowhere'] }), ['/home']);
    }));

    test('neighbours and hydrate', () => withStorage(driver, async (storage) => {
      await create(storage, { folder: '/a', messages: [says('one'), says('two'), says('three')] });
      const keys = (await storage.embeddings.claimPending(10, 60_000)).map((m) => m.key);
      const neighbours = await storage.search.neighbours([keys[1]!, keys[0]!], {});
      assert.deepEqual(neighbours.get(keys[1]!), [keys[0], keys[2]]);
      assert.deepEqual(neighbours.get(keys[0]!), [keys[1]]);
      assert.equal((await storage.search.neighbours([keys[1]!], { folder: '/b' })).size, 0);
      assert.deepEqual(await storage.search.neighbours([keys[1]!], { archived: false, excludedFolders: ['/b'] }),
        new Map([[keys[1]!, [keys[0], keys[2]]]]));
      assert.equal((await storage.search.neighbours([keys[1]!], { archived: true })).size, 0);
      // Dates filter the neighbours themselves; excluding the root folder leaves nothing.
      assert.equal((await storage.search.neighbours([keys[1]!], { dateFrom: '2999-01-01T00:00:00.000Z' })).size, 0);
      assert.deepEqual(await storage.search.neighbours([keys[1]!], { dateTo: '2999-01-01T00:00:00.000Z' }),
        new Map([[keys[1]!, [keys[0], keys[2]]]]));
      assert.equal((await storage.search.neighbours([keys[1]!], { excludedFolders: ['/'] })).size, 0);
      const hits = await storage.search.hydrate([keys[2]!, 999_999, keys[0]!]);
      assert.deepEqual(hits.map((h) => [h.content, h.position, h.folder, h.label, h.status]),
        [['three', 2, '/a', 'chat', 'active'], ['one', 0, '/a', 'chat', 'active']]);
    }));

    test('author names: stored by create, append and import; read back by lists and with hits', () => withStorage(driver, async (storage) => {
      const named = (name: string | null, content: string): MessageInput => ({ ...says(content), name });
      const conversation = await create(storage, { messages: [named('Melanie', 'I painted a sunrise'), named(null, 'Lovely')] });
      const appended = await storage.conversations.appendMessages(conversation.id, [named('Caroline', 'Which lake?')], at(1), policy);
      assert.deepEqual(appended!.messages.map((m) => m.name), ['Caroline']);
      const listed = await storage.conversations.listMessages(conversation.id, { offset: 0, limit: 10 });
      assert.deepEqual(listed.items.map((m) => m.name), ['Melanie', null, 'Caroline']);
      await storage.archive.importAll([{
        id: newId(), label: 'imported', folder: '/imp', status: 'active', importanceScore: 5, wordCount: 2, sessionCount: 1,
        createdAt: at(2), updatedAt: at(2), lastAccessedAt: at(2), lastMessageAt: at(2),
        messages: [{ id: null, role: 'user', name: 'Ana', content: 'imported words', timestamp: at(2), metadata: null }],
      }], 'skip');
      const keys = (await storage.embeddings.claimPending(10, 60_000)).map((m) => m.key);
      const hits = await storage.search.hydrate(keys);
      assert.deepEqual(hits.map((h) => [h.content, h.name]),
        [['I painted a sunrise', 'Melanie'], ['Lovely', null], ['Which lake?', 'Caroline'], ['imported words', 'Ana']]);
    }));

    test('vector search: nearest by cosine, with and without filters', () => withStorage(driver, async (storage) => {
      const directions: Record<string, number[]> = { north: [0, 1, 0], east: [1, 0, 0], up: [0, 0, 1], northeast: [1, 1, 0] };
      await create(storage, { folder: '/a', messages: [says('north'), says('east')] });
      const inB = await create(storage, { folder: '/b', messages: [says('up'), says('northeast')] });
      const { vectors } = await embedAll(storage, (content) => directions[content]!);
      const names = async (query: number[], filter: SearchFilter, k: number) => {
        const found = await vectors.nearest(normalize(query), filter, k);
        assert.ok(found.every((item, i) => i === 0 || item.score <= found[i - 1]!.score));
        return (await storage.search.hydrate(found.map((item) => item.key))).map((hit) => hit.content);
      };
      assert.deepEqual(await names([0.9, 1, 0], {}, 2), ['northeast', 'north']);
      assert.deepEqual(await names([0.9, 1, 0], { folder: '/a' }, 5), ['north', 'east']);
      assert.deepEqual(await names([0, 0, 1], { folder: '/b' }, 1), ['up']);
      // Nothing archived and nothing in /nowhere: the same as no filter; archiving counts at once.
      assert.deepEqual(await names([0.9, 1, 0], { archived: false, excludedFolders: ['/nowhere'] }, 4), ['northeast', 'north', 'east', 'up']);
      assert.deepEqual(await names([0.9, 1, 0], { archived: true }, 4), []);
      await storage.conversations.setStatusMany([inB.id], 'archived', at(9));
      assert.deepEqual(await names([0.9, 1, 0], { archived: false, excludedFolders: ['/nowhere'] }, 4), ['north', 'east']);
      assert.deepEqual(await names([0.9, 1, 0], { archived: true }, 4), ['northeast', 'up']);
      const best = await vectors.nearest(normalize([1, 0, 0]), {}, 1);
      assert.ok(Math.abs(best[0]!.score - 1) < 1e-3, 'cosine similarity of the same direction is 1');
    }));

    test('vector search never returns a deleted message, though the index was not told (with and without a filter)', () => withStorage(driver, async (storage) => {
      const directions: Record<string, number[]> = { north: [0, 1, 0], east: [1, 0, 0], up: [0, 0, 1], northeast: [1, 1, 0] };
      await create(storage, { folder: '/a', messages: [says('north'), says('east')] });
      const doomed = await create(storage, { folder: '/a', messages: [says('northeast'), says('up')] });
      const { vectors } = await embedAll(storage, (content) => directions[content]!);
      const names = async (filter: SearchFilter) =>
        (await storage.search.hydrate((await vectors.nearest(normalize([0.9, 1, 0]), filter, 4)).map((item) => item.key)))
          .map((hit) => hit.content);
      assert.deepEqual(await names({}), ['northeast', 'north', 'east', 'up']);
      await storage.conversations.delete(doomed.id);
      assert.deepEqual(await names({}), ['north', 'east']);
      assert.deepEqual(await names({ folder: '/a' }), ['north', 'east']);
    }, { exactMaxCandidates: 0 }));

    test('a store small enough to read whole is ranked from every stored vector, even one its graph cannot reach', () => withStorage(driver, async (storage) => {
      assert.deepEqual(await searchPastUnreachable(storage), ['northeast', 'north', 'east', 'up']);
    }));

    test('past exact_max_candidates, a tiny graph is searched as it is: no exact scan of a larger store', () => withStorage(driver, async (storage) => {
      // pgvector's index ranks in the database, whatever the graph in memory; every local graph is held back.
      const expected = storage.openLocalIndex === null ? ['northeast', 'north', 'east', 'up'] : ['north', 'east', 'up'];
      assert.deepEqual(await searchPastUnreachable(storage), expected);
    }, { exactMaxCandidates: 3 }));

    test('vector search through the index under a selective and a broad filter, folder and dates: exactly the admitted matches, best first', () => withStorage(driver, async (storage) => {
      const table: Record<string, number[]> = {};
      // Angles from 0 to under 2 radians: the nearer to 0, the nearer the query.
      const vectorFor = (i: number) => [Math.cos(i / 40), Math.sin(i / 40), 0.3];
      // 6 of 82 messages in /rare (7%: below the share that checks candidates against a conversation set), at minutes 0-5.
      for (let c = 0; c < 6; c += 1) {
        const content = `rare ${c}`;
        table[content] = vectorFor(c * 10 + 1);
        await create(storage, { folder: '/rare', messages: [says(content, c)] });
      }
      const common: MessageInput[] = [];
      for (let i = 0; i < 76; i += 1) {
        const content = `common ${i}`;
        table[content] = vectorFor(i);
        common.push(says(content, i));
      }
      await create(storage, { folder: '/common', messages: common.slice(0, 38) });
      await create(storage, { folder: '/common', messages: common.slice(38) });
      const { vectors } = await embedAll(storage, (content) => table[content]!);
      const query = normalize([1, 0, 0.3]);
      const contents = async (filter: SearchFilter, k: number) => {
        const found = await vectors.nearest(query, filter, k);
        assert.ok(found.every((item, i) => i === 0 || item.score <= found[i - 1]!.score));
        return (await storage.search.hydrate(found.map((item) => item.key))).map((hit) => hit.content);
      };
      assert.deepEqual(await contents({ folder: '/rare' }, 10), ['rare 0', 'rare 1', 'rare 2', 'rare 3', 'rare 4', 'rare 5']);
      assert.deepEqual(await contents({ folder: '/rare', dateFrom: at(2) }, 10), ['rare 2', 'rare 3', 'rare 4', 'rare 5']);
      assert.deepEqual(await contents({ folder: '/rare', dateTo: at(0) }, 10), ['rare 0']);
      assert.deepEqual(await contents({ folder: '/common' }, 3), ['common 0', 'common 1', 'common 2']);
      assert.deepEqual(await contents({ folder: '/common', dateFrom: at(40) }, 2), ['common 40', 'common 41']);
      assert.deepEqual(await contents({ archived: false, excludedFolders: ['/common'] }, 3), ['rare 0', 'rare 1', 'rare 2']);
    }, { exactMaxCandidates: 2 }));

    test('vector search through the index with exact search off: a filter still yields its matches, best first', () => withStorage(driver, async (storage) => {
      const table: Record<string, number[]> = {};
      const messages = (folder: string, n: number) => Array.from({ length: n }, (_, i) => {
        const content = `${folder} ${i}`;
        table[content] = [Math.cos(i / 7), Math.sin(i / 7), folder === '/near' ? 0.1 : 0.2];
        return says(content);
      });
      await create(storage, { folder: '/near', messages: messages('/near', 12) });
      await create(storage, { folder: '/far', messages: messages('/far', 40) });
      const { vectors } = await embedAll(storage, (content) => table[content]!);
      const found = await vectors.nearest(normalize([1, 0, 0.1]), { folder: '/near' }, 5);
      const hits = await storage.search.hydrate(found.map((item) => item.key));
      assert.equal(hits.length, 5);
      assert.ok(hits.every((hit) => hit.folder === '/near'), hits.map((hit) => hit.folder).join(','));
      assert.deepEqual(hits.map((hit) => hit.content), ['/near 0', '/near 1', '/near 2', '/near 3', '/near 4']);
      assert.ok(found.every((item, i) => i === 0 || item.score <= found[i - 1]!.score));
    }, { exactMaxCandidates: 0 }));

    test('vector search under a date range whose few messages lie far from the question, in a store larger than the graph\'s widest candidate list: all of them', () => withStorage(driver, async (storage) => {
      // 4,100 messages near the question, then 5 later ones pointing away from it.
      const near = (i: number) => [1, (i % 97) / 1000, 0.3];
      for (let c = 0; c < 82; c += 1) {
        await create(storage, { folder: '/bulk', messages: Array.from({ length: 50 }, (_, i) => says(`near ${c * 50 + i}`, 0)) });
      }
      await create(storage, { folder: '/late', messages: Array.from({ length: 5 }, (_, i) => says(`far ${i}`, 10_000 + i)) });
      const { vectors } = await embedAll(storage, (content) => (content.startsWith('far') ? [-1, Number(content.slice(4)) / 10, 0.3] : near(Number(content.slice(5)))));
      const found = await vectors.nearest(normalize([1, 0, 0.3]), { dateFrom: at(10_000) }, 10);
      const hits = await storage.search.hydrate(found.map((item) => item.key));
      assert.deepEqual(hits.map((hit) => hit.content).sort(), ['far 0', 'far 1', 'far 2', 'far 3', 'far 4']);
    }));

    test('context reads: pinned and recent message keys, newest first', () => withStorage(driver, async (storage) => {
      await create(storage, { importance: 10, messages: [says('pinned old', 0), says('pinned new', 10)] });
      await create(storage, { importance: 4, messages: [says('recent', 20)] });
      const contents = async (keys: number[]) => (await storage.search.hydrate(keys)).map((h) => h.content);
      assert.deepEqual(await contents(await storage.context.pinnedMessageKeys({}, 10, 5)), ['pinned new', 'pinned old']);
      assert.deepEqual(await contents(await storage.context.recentMessageKeys({}, at(5), 5)), ['recent', 'pinned new']);
      assert.deepEqual(await storage.activity.messagesPerDay('2026-04-01T00:00:00.000Z'), [{ date: '2026-05-01', messages: 3 }]);
    }));

    test('summaries: windows, content-addressed save and find, newest kept per level', () => withStorage(driver, async (storage) => {
      const conversation = await create(storage, { messages: [says('a', 0), says('b', 60), says('c', 120)] });
      assert.equal((await storage.summaries.messageKeysInWindow(conversation.id, at(0), at(120))).length, 2, 'windows are (start, end]');
      assert.deepEqual((await storage.summaries.messagesInWindow(conversation.id, at(-1), at(200), 2)).map((m) => m.content), ['b', 'c']);
      const summary = (hash: string, generatedAt: string) => ({
        conversationId: conversation.id, level: 'daily' as const, sourceHash: hash, windowStart: at(0), windowEnd: at(200),
        sourceCount: 3, summary: `summary ${hash}`, model: 'builtin', generatedAt,
      });
      await storage.summaries.save(summary('h1', at(1)), 2);
      await storage.summaries.save(summary('h2', at(2)), 2);
      await storage.summaries.save(summary('h3', at(3)), 2);
      assert.equal(await storage.summaries.find(conversation.id, 'daily', 'h1'), null, 'only the newest 2 are kept');
      assert.deepEqual(await storage.summaries.find(conversation.id, 'daily', 'h3'), summary('h3', at(3)));
      await storage.conversations.delete(conversation.id);
      await storage.summaries.save(summary('h4', at(4)), 2);
      assert.equal(await storage.summaries.find(conversation.id, 'daily', 'h4'), null, 'no summary for a deleted conversation');
    }));

    test('pruning lists idle, unpinned, active conversations, the archivable ones first', () => withStorage(driver, async (storage) => {
      const low = await create(storage, { importance: 2, messages: [says('x'.repeat(150))], now: at(0) });
      const mid = await create(storage, { importance: 6, now: at(-10) });
      await create(storage, { importance: 10, now: at(0) });
      await create(storage, { importance: 2, now: at(500) });
      const idle = await storage.pruning.idleConversations({ idleBefore: at(100), importanceThreshold: 3, limit: 10 });
      assert.deepEqual(idle.items.map((c) => c.id), [low.id, mid.id]);
      assert.deepEqual([idle.total, idle.archivable], [2, 1]);
      assert.deepEqual([idle.items[0]!.contentChars, idle.items[0]!.preview.length, idle.items[0]!.messageCount], [150, 100, 1]);
    }));

    test('label vectors: a conversation\'s vectors and per-label centroids', () => withStorage(driver, async (storage) => {
      const target = await create(storage, { label: 'target', messages: [says('t')] });
      await create(storage, { label: 'alpha', messages: [says('a1'), says('a2')] });
      await create(storage, { label: 'beta', messages: [says('b1')] });
      const table: Record<string, number[]> = { t: [1, 0], a1: [1, 0], a2: [0, 1], b1: [0, 1] };
      await embedAll(storage, (content) => table[content]!);
      const own = await storage.labelVectors.conversationVectors(target.id, 10);
      assert.equal(own!.model, 'test-model');
      assert.equal(own!.vectors.length, 1);
      const centroids = new Map((await storage.labelVectors.labelCentroids('test-model', target.id, 10))
        .map((c) => [c.label, [c.conversations, ...Array.from(c.centroid).map((x) => Math.round(x * 1000) / 1000)]]));
      assert.deepEqual(centroids.get('alpha'), [1, 0.5, 0.5]);
      assert.deepEqual(centroids.get('beta'), [1, 0, 1]);
      assert.equal(centroids.has('target'), false);
      assert.deepEqual(await storage.labelVectors.labelUsage(1), [{ label: 'alpha', conversations: 1 }]);
    }));

    test('archive: pages by (created_at, id); import skips, replaces or renames, and is all or nothing', () => withStorage(driver, async (storage) => {
      const existing = await create(storage, { folder: '/keep', messages: [says('old words')], now: at(0) });
      await create(storage, { folder: '/other', now: at(1) });
      const first = await storage.archive.page({ folder: '/keep' }, null, 10);
      assert.deepEqual(first.map((c) => c.id), [existing.id]);
      const all = await storage.archive.page({}, { createdAt: at(0), id: existing.id }, 10);
      assert.equal(all.length, 1, 'the cursor is exclusive');
      const record = (id: string, content: string): ImportedConversation => ({
        id, label: 'imported', folder: '/imp', status: 'active', importanceScore: 5, wordCount: 2, sessionCount: 1,
        createdAt: at(2), updatedAt: at(3), lastAccessedAt: at(3), lastMessageAt: at(2),
        messages: [{ id: null, role: 'user', name: null, content, timestamp: at(2), metadata: null }],
      });
      const skipped = await storage.archive.importAll([record(existing.id, 'new words')], 'skip');
      assert.deepEqual([skipped.imported, skipped.skipped], [0, 1]);
      const renamed = await storage.archive.importAll([record(existing.id, 'renamed words')], 'new_id');
      assert.equal(renamed.renamed.length, 1);
      const replaced = await storage.archive.importAll([record(existing.id, 'replacement words')], 'replace');
      assert.deepEqual([replaced.replaced, replaced.removedMessageKeys.length], [1, 1]);
      const hits = await storage.search.hydrate((await storage.search.fullText(parseFullTextQuery('replacement'), {}, 10)).map((r) => r.key));
      assert.deepEqual(hits.map((h) => h.conversationId), [existing.id], 'imported messages are searchable');
      const before = await storage.conversations.count({});
      const broken = { ...record(newId(), 'fine'), status: 'bogus' as 'active' };
      await assert.rejects(storage.archive.importAll([record(newId(), 'first of batch'), broken], 'skip'));
      assert.equal(await storage.conversations.count({}), before, 'a failed import stores nothing');
    }));

    test('totals and ping', () => withStorage(driver, async (storage) => {
      await create(storage, { messages: [says('a'), says('b')] });
      await create(storage, {});
      const totals = await storage.conversations.totals();
      assert.deepEqual([totals.conversations, totals.messages, totals.embeddedMessages], [2, 2, 0]);
      assert.ok(totals.storageBytes >= 0);
      await storage.conversations.ping();
    }));

    test('a tenant\'s subtrees (within) bound every read that takes them; none admits nothing', () => withStorage(driver, async (storage) => {
      const folders = ['/t/a', '/t/a/sub', '/t/ab', '/t/b', '/x'];
      const made: Array<Awaited<ReturnType<typeof create>>> = [];
      for (const [i, folder] of folders.entries()) {
        made.push(await create(storage, { folder, label: `l${i}`, importance: 2,
          messages: [says(`note ${folder} shared word`, i), says(`more ${folder}`, i + 1)], now: at(i) }));
      }
      const { holder, vectors } = await embedAll(storage, (content) => [content.length % 7, 1, content.includes('shared') ? 1 : 0]);
      const cases: Array<[readonly string[] | undefined, string[]]> = [
        [undefined, folders], [['/t/a'], ['/t/a', '/t/a/sub']], [['/t/a', '/x'], ['/t/a', '/t/a/sub', '/x']], [[], []],
      ];
      for (const [within, expected] of cases) {
        const what = JSON.stringify(within);
        const inside = made.filter((c) => expected.includes(c.folder));
        assert.deepEqual((await storage.conversations.folderCounts(within)).map((f) => f.folder), expected, `folderCounts ${what}`);
        const totals = await storage.conversations.totals(within);
        assert.deepEqual([totals.conversations, totals.messages, totals.embeddedMessages],
          [inside.length, inside.length * 2, inside.length * 2], `totals ${what}`);
        const counts = await storage.embeddings.counts(within);
        assert.deepEqual(counts, { pending: 0, done: inside.length * 2, failed: 0 }, `embedding counts ${what}`);
        assert.equal(await storage.conversations.count({ within }), inside.length, `count ${what}`);
        const page = await storage.conversations.list({ offset: 0, limit: 50, filter: { within }, sort: 'label', order: 'asc' });
        assert.deepEqual(page.items.map((c) => c.folder).sort(), [...expected].sort(), `list ${what}`);
        const usage = await storage.labelVectors.labelUsage(50, within);
        assert.deepEqual(usage.map((u) => u.label).sort(), inside.map((c) => c.label).sort(), `labelUsage ${what}`);
        const centroids = await storage.labelVectors.labelCentroids('test-model', '00000000-0000-4000-8000-000000000000', 5, within);
        assert.deepEqual(centroids.map((c) => c.label).sort(), inside.map((c) => c.label).sort(), `labelCentroids ${what}`);
        const days = await storage.activity.messagesPerDay('2000-01-01T00:00:00.000Z', within);
        assert.equal(days.reduce((sum, day) => sum + day.messages, 0), inside.length * 2, `messagesPerDay ${what}`);
        const idle = await storage.pruning.idleConversations({ idleBefore: at(1000), importanceThreshold: 5, limit: 50, within });
        assert.deepEqual(idle.items.map((c) => c.id).sort(), inside.map((c) => c.id).sort(), `idleConversations ${what}`);
        assert.equal(idle.total, inside.length);
        const found = await storage.search.hydrate((await storage.search.fullText(naturalLanguageQuery('shared word')!, { within }, 50))
          .map((hit) => hit.key));
        assert.deepEqual([...new Set(found.map((hit) => hit.folder))].sort(), [...expected].sort(), `full text ${what}`);
        const near = await storage.search.hydrate((await vectors.nearest(normalize([0, 1, 1]), { within }, 50))
          .map((hit) => hit.key));
        assert.deepEqual([...new Set(near.map((hit) => hit.folder))].sort(), [...expected].sort(), `vectors ${what}`);
      }
      const waiting = await create(storage, { folder: '/t/a/late', messages: [says('not embedded yet')] });
      assert.deepEqual([await storage.embeddings.pendingCount(['/t/a']), await storage.embeddings.pendingCount(['/x']),
        await storage.embeddings.pendingCount([]), await storage.embeddings.pendingCount()], [1, 0, 0, 1], 'pending within');
      assert.equal((await storage.embeddings.counts(['/t/a'])).pending, 1, waiting.id);
      await holder.close();
    }));

    test('within: exact counts, states, days, centroids and idle order per subtree set; storage shared by messages', () => withStorage(driver, async (storage) => {
      assert.deepEqual(await storage.conversations.totals(['/']), { conversations: 0, messages: 0, embeddedMessages: 0, storageBytes: 0 },
        'no messages: no share of the storage');
      const DAY = 24 * 60;
      // Contents say what becomes of each message: `done` is embedded, `fail` fails for good, `wait` stays pending.
      const spec = [
        { folder: '/t/a', label: 'alpha', importance: 2, day: 0, states: ['done', 'done', 'fail'] },
        { folder: '/t/a', label: 'alpha', importance: 8, day: 1, states: ['done'] },
        { folder: '/t/a/sub', label: 'beta', importance: 2, day: 1, states: ['done', 'wait'] },
        { folder: '/t/ab', label: 'alpha', importance: 2, day: 2, states: ['done', 'done', 'done', 'done'] },
        { folder: '/t/b', label: 'beta', importance: 2, day: 0, states: ['done', 'fail'] },
        { folder: '/x', label: 'gamma', importance: 2, day: 3, states: ['wait', 'done', 'done'] },
        { folder: '/t/a/sub', label: 'beta', importance: 10, day: 1, states: [] },
      ];
      const made = [];
      for (const [i, c] of spec.entries()) {
        made.push(await create(storage, { folder: c.folder, label: c.label, importance: c.importance, now: at(i),
          messages: c.states.map((state, k) => says(`${c.folder} ${state} ${i}.${k}`, c.day * DAY + k)) }));
      }
      const directions: Record<string, number[]> = {
        '/t/a': [1, 0, 0], '/t/a/sub': [0, 1, 0], '/t/ab': [0, 0, 1], '/t/b': [1, 1, 0], '/x': [0, 1, 1],
      };
      await storage.embeddings.recordModel({ model: 'test-model', dimension: 3 });
      const claimed = await storage.embeddings.claimPending(100, 60_000);
      assert.equal(claimed.length, 15);
      const stateOf = (content: string) => content.split(' ')[1]!;
      await storage.embeddings.complete('test-model', claimed.filter((m) => stateOf(m.content) === 'done')
        .map((m) => ({ key: m.key, vector: normalize(directions[m.content.split(' ')[0]!]!) })));
      await storage.embeddings.recordFailure(claimed.filter((m) => stateOf(m.content) === 'fail').map((m) => m.key), 'boom', 1);

      const [c1, c2, c3, , , c6] = made;
      const day = (n: number) => at(n * DAY).slice(0, 10);
      const round = (values: Float32Array) => Array.from(values, (x) => Math.round(x * 1000) / 1000);
      const cases: Array<{ within: readonly string[] | undefined; folders: Array<[string, number]>; totals: [number, number, number];
        queue: [number, number, number]; usage: Array<[string, number]>; days: Array<[string, number]>;
        centroids: Array<[string, number, number[]]>; idle: string[]; archivable: number }> = [
        { within: undefined, folders: [['/t/a', 2], ['/t/a/sub', 2], ['/t/ab', 1], ['/t/b', 1], ['/x', 1]],
          totals: [7, 15, 11], queue: [2, 11, 2], usage: [['alpha', 3], ['beta', 3], ['gamma', 1]],
          days: [[day(0), 5], [day(1), 3], [day(2), 4], [day(3), 3]],
          centroids: [['alpha', 2, [0.333, 0, 0.667]], ['beta', 3, [0.354, 0.854, 0]], ['gamma', 1, [0, 0.707, 0.707]]],
          idle: [c1!.id, c3!.id, made[3]!.id, made[4]!.id, c6!.id, c2!.id], archivable: 5 },
        { within: ['/t/a'], folders: [['/t/a', 2], ['/t/a/sub', 2]], totals: [4, 6, 4], queue: [1, 4, 1],
          usage: [['alpha', 2], ['beta', 2]], days: [[day(0), 3], [day(1), 3]],
          centroids: [['alpha', 1, [1, 0, 0]], ['beta', 2, [0, 1, 0]]], idle: [c1!.id, c3!.id, c2!.id], archivable: 2 },
        { within: ['/t/a', '/x'], folders: [['/t/a', 2], ['/t/a/sub', 2], ['/x', 1]], totals: [5, 9, 6], queue: [2, 6, 1],
          usage: [['alpha', 2], ['beta', 2], ['gamma', 1]], days: [[day(0), 3], [day(1), 3], [day(3), 3]],
          centroids: [['alpha', 1, [1, 0, 0]], ['beta', 2, [0, 1, 0]], ['gamma', 1, [0, 0.707, 0.707]]],
          idle: [c1!.id, c3!.id, c6!.id, c2!.id], archivable: 3 },
        { within: [], folders: [], totals: [0, 0, 0], queue: [0, 0, 0], usage: [], days: [], centroids: [], idle: [], archivable: 0 },
      ];
      const whole = await storage.conversations.totals();
      assert.ok(whole.storageBytes > 0, 'the store takes some room');
      for (const expected of cases) {
        const { within } = expected;
        const what = JSON.stringify(within);
        const folders = (await storage.conversations.folderCounts(within)).map((f): [string, number] => [f.folder, f.count]);
        assert.deepEqual(folders.sort(([a], [b]) => (a < b ? -1 : 1)), expected.folders, `folderCounts ${what}`);

        // The whole read just before and just after: the file (and its WAL) may grow between reads while a write
        // of the index holder settles, so the share is taken of a whole that held still around it.
        const { totals, wholeBytes } = await waitFor(async () => {
          const before = (await storage.conversations.totals()).storageBytes;
          const read = await storage.conversations.totals(within);
          return { totals: read, wholeBytes: before, still: (await storage.conversations.totals()).storageBytes === before };
        }, { what: `the store's size to hold still around totals ${what}`, until: (read) => read.still });
        assert.deepEqual([totals.conversations, totals.messages, totals.embeddedMessages], expected.totals, `totals ${what}`);
        assert.ok(Number.isInteger(totals.storageBytes), `storageBytes rounded ${what}`);
        // The database may move by a page between reads: the share is checked to 2% of the whole.
        const share = wholeBytes * (expected.totals[1] / 15);
        assert.ok(Math.abs(totals.storageBytes - share) <= wholeBytes * 0.02,
          `storageBytes ${what}: ${totals.storageBytes}, expected about ${Math.round(share)} of ${wholeBytes}`);
        if (within?.length === 0) assert.equal(totals.storageBytes, 0);

        const [pending, done, failed] = expected.queue;
        assert.deepEqual(await storage.embeddings.counts(within), { pending, done, failed }, `embedding counts ${what}`);

        assert.deepEqual((await storage.labelVectors.labelUsage(50, within)).map((u) => [u.label, u.conversations]), expected.usage,
          `labelUsage ${what}`);
        assert.deepEqual((await storage.labelVectors.labelUsage(1, within)).map((u) => u.label), expected.usage.slice(0, 1).map(([l]) => l),
          `labelUsage limit ${what}`);

        const centroids = (await storage.labelVectors.labelCentroids('test-model', c2!.id, 10, within))
          .map((c) => [c.label, c.conversations, round(c.centroid)]).sort(([a], [b]) => (String(a) < String(b) ? -1 : 1));
        assert.deepEqual(centroids, expected.centroids, `labelCentroids ${what}`);

        const days = await storage.activity.messagesPerDay(at(0), within);
        assert.deepEqual(days.map((d) => [d.date, d.messages]), expected.days, `messagesPerDay ${what}`);
        const later = await storage.activity.messagesPerDay(at(DAY), within);
        assert.deepEqual(later.map((d) => [d.date, d.messages]), expected.days.filter(([date]) => date !== day(0)),
          `messagesPerDay since ${what}`);

        const idle = await storage.pruning.idleConversations({ idleBefore: at(100 * DAY), importanceThreshold: 5, limit: 50, within });
        assert.deepEqual(idle.items.map((c) => c.id), expected.idle, `idleConversations ${what}`);
        assert.deepEqual([idle.total, idle.archivable], [expected.idle.length, expected.archivable], `idle counts ${what}`);
        const first = await storage.pruning.idleConversations({ idleBefore: at(100 * DAY), importanceThreshold: 5, limit: 1, within });
        assert.deepEqual([first.items.map((c) => c.id), first.total], [expected.idle.slice(0, 1), expected.idle.length], `idle limit ${what}`);
      }
      const everything = await storage.conversations.totals(['/']);
      assert.deepEqual([everything.conversations, everything.messages, everything.embeddedMessages], [7, 15, 11], 'the root holds all');
      assert.deepEqual(await storage.embeddings.counts(['/']), await storage.embeddings.counts());
    }));

    test('API keys: stored by hash, names unique while not revoked, revocation kept once, one signing secret', () => withStorage(driver, async (storage) => {
      const key = (id: string, name: string, hash: string) => ({
        id, name, grants: [{ folder: '/t/a', access: 'write' as const }], admin: false,
        rateLimit: id === 'key_1' ? { requestsPerSecond: 2.5, burst: 5 } : null, secretHash: hash, createdAt: at(Number(id.slice(4))),
      });
      const first = await storage.keys.create(key('key_1', 'alice', 'h1'));
      assert.deepEqual(first, { id: 'key_1', name: 'alice', grants: [{ folder: '/t/a', access: 'write' }], admin: false,
        rateLimit: { requestsPerSecond: 2.5, burst: 5 }, createdAt: at(1), lastUsedAt: null, revokedAt: null });
      await assert.rejects(storage.keys.create(key('key_2', 'alice', 'h2')), (error: Error) => error.name === 'ConflictError');
      assert.deepEqual((await storage.keys.findBySecretHash('h1'))?.id, 'key_1');
      assert.equal(await storage.keys.findBySecretHash('nope'), null);
      await storage.keys.recordUse('key_1', at(5));
      assert.equal((await storage.keys.get('key_1'))?.lastUsedAt, at(5));
      assert.equal(await storage.keys.revoke('key_1', at(6)), true);
      assert.equal(await storage.keys.revoke('key_1', at(7)), true);
      assert.equal((await storage.keys.get('key_1'))?.revokedAt, at(6), 'the first revocation is kept');
      assert.equal(await storage.keys.revoke('key_404', at(7)), false);
      await storage.keys.create(key('key_3', 'alice', 'h3'));
      assert.deepEqual((await storage.keys.list()).map((k) => k.id), ['key_1', 'key_3']);
      const [a, b] = await Promise.all([storage.keys.signingSecret('first'), storage.keys.signingSecret('second')]);
      assert.equal(a, b, 'concurrent first calls agree');
      assert.equal(await storage.keys.signingSecret('third'), a);
    }));

    test('API keys: the conflict names the key, a revoked key is still found by its hash, every field round-trips', () => withStorage(driver, async (storage) => {
      const grants = [{ folder: '/t/a', access: 'read' as const }, { folder: '/t/b/c', access: 'write' as const }];
      const admin = { id: 'key_a', name: 'ops', grants: [], admin: true, rateLimit: null, secretHash: 'ha', createdAt: at(1) };
      const scoped = { id: 'key_b', name: 'bob', grants, admin: false, rateLimit: { requestsPerSecond: 0.5, burst: 1 },
        secretHash: 'hb', createdAt: at(2) };
      assert.deepEqual(await storage.keys.create(admin), { id: 'key_a', name: 'ops', grants: [], admin: true, rateLimit: null,
        createdAt: at(1), lastUsedAt: null, revokedAt: null });
      await storage.keys.create(scoped);
      const bob = { id: 'key_b', name: 'bob', grants, admin: false, rateLimit: { requestsPerSecond: 0.5, burst: 1 },
        createdAt: at(2), lastUsedAt: null, revokedAt: null };
      assert.deepEqual(await storage.keys.get('key_b'), bob);
      assert.deepEqual(await storage.keys.findBySecretHash('hb'), bob);
      assert.deepEqual(await storage.keys.list(), [{ ...bob, id: 'key_a', name: 'ops', grants: [], admin: true, rateLimit: null,
        createdAt: at(1) }, bob]);
      assert.equal(await storage.keys.get('key_404'), null);

      await assert.rejects(storage.keys.create({ ...scoped, id: 'key_c', secretHash: 'hc', createdAt: at(3) }), (error: unknown) => {
        assert.ok(error instanceof ConflictError, String(error));
        assert.equal(error.code, 'CONFLICT');
        assert.equal(error.message, 'A key named "bob" already exists');
        return true;
      });
      assert.equal(await storage.keys.get('key_c'), null, 'the refused key is not stored');

      await storage.keys.recordUse('key_b', at(4));
      await storage.keys.recordUse('key_b', at(5));
      await storage.keys.recordUse('key_404', at(5));
      assert.equal(await storage.keys.revoke('key_b', at(6)), true);
      assert.deepEqual(await storage.keys.findBySecretHash('hb'), { ...bob, lastUsedAt: at(5), revokedAt: at(6) },
        'revoked keys are found too: the caller refuses them');
      const again = await storage.keys.create({ ...scoped, id: 'key_c', secretHash: 'hc', createdAt: at(7) });
      assert.deepEqual([again.name, again.revokedAt], ['bob', null], 'a revoked name can be used again');
      assert.deepEqual((await storage.keys.list()).map((k) => [k.id, k.revokedAt]), [['key_a', null], ['key_b', at(6)], ['key_c', null]]);
    }));

    test('API keys: the first signing secret stored wins, however many ask at once', () => withStorage(driver, async (storage) => {
      const candidates = Array.from({ length: 8 }, (_, i) => `candidate-${i}`);
      const secrets = await Promise.all(candidates.map((candidate) => storage.keys.signingSecret(candidate)));
      assert.equal(new Set(secrets).size, 1, `concurrent first calls agree: ${secrets.join(', ')}`);
      assert.ok(candidates.includes(secrets[0]!));
      assert.equal(await storage.keys.signingSecret('later'), secrets[0], 'a later call returns the stored one');
    }));
  });
}

