import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { FakeBridge } from '../helpers/fake-bridge.js';
import { type RunningService, startService } from '../helpers/service-harness.js';
import { waitFor } from '../helpers/wait-for.js';
import type { ThreadedVectorIndex } from '../../src/adapters/vector/threaded-vector-index.js';

const TOPIC = 'paper dataset baseline experiment hypothesis metric sample citation ablation figure benchmark replicate'.split(' ');
const OTHER = ('river mountain engine garden violin market winter coffee ladder silver planet harbor pencil thunder meadow ' +
  'castle rocket candle forest bridge orange saddle window travel marble tiger canyon lantern').split(' ');
const CONVERSATIONS = 260;
const PER_CONVERSATION = 10;
const PARTITIONS = 4;
/** Every eighth conversation is in the topical folder, and only it speaks of research. */
const isTopical = (conversation: number) => conversation % 8 === 0;

function textOf(seed: number, vocabulary: readonly string[]): string {
  const words: string[] = [];
  let state = (seed + 7) * 2654435761 % 4294967296;
  for (let w = 0; w < 4 + (seed % 3); w += 1) {
    state = (state * 1103515245 + 12345) % 2147483648;
    words.push(vocabulary[state % vocabulary.length]!);
  }
  return `${words.join(' ')} item${seed}`;
}

const dot = (a: readonly number[], b: readonly number[]) => a.reduce((sum, x, i) => sum + Math.fround(x) * Math.fround(b[i]!), 0);

/**
 * A folder that follows a topic, asked about another: the graph's regions nearest the question hold none of the
 * folder's messages. The search must still return the folder's exact best ten, through the partitioned index
 * (exact_max_candidates 100 keeps the folder's 325 vectors from an exact scan; one probe keeps the first search to the
 * question's region).
 */
describe('semantic search under a topical folder filter, partitioned index', () => {
  let bridge: FakeBridge;
  let running: RunningService;
  const topical: Array<{ text: string; vector: number[] }> = [];

  before(async () => {
    bridge = await new FakeBridge().start();
    running = await startService({
      bridge: { url: bridge.url },
      overrides: { search: { exact_max_candidates: 100, index_partitions: PARTITIONS, index_probes: 1 } },
    });
    for (let from = 0; from < CONVERSATIONS; from += 20) {
      await Promise.all(Array.from({ length: Math.min(20, CONVERSATIONS - from) }, (_, i) => {
        const conversation = from + i;
        const messages = Array.from({ length: PER_CONVERSATION }, (_, position) => {
          const seed = conversation * PER_CONVERSATION + position;
          const text = textOf(seed, isTopical(conversation) ? TOPIC : OTHER);
          if (isTopical(conversation)) topical.push({ text, vector: bridge.embed(text) });
          return { role: 'user', content: text };
        });
        return running.api('POST', '/api/v1/conversations', {
          label: `c${conversation}`, folder: isTopical(conversation) ? '/research' : '/other', messages,
        });
      }));
    }
    const total = CONVERSATIONS * PER_CONVERSATION;
    await waitFor(() => running.api('GET', '/api/v1/embeddings/status'),
      { what: `all ${total} messages embedded`, until: (r) => r.body.searchable === true && r.body.done === total, timeoutMs: 60_000 });
    const index = running.controller.holder.current().index as ThreadedVectorIndex;
    await index.flush();
    assert.equal((await index.graphParameters()).partitions, PARTITIONS, 'the index has split into its partitions');
  });
  after(async () => {
    await running?.stop();
    await bridge?.stop();
  });

  /** Asks `question` under the /research filter: every hit is the folder's, and they are its exact best ten. */
  async function assertFolderExactBestTen(question: string): Promise<void> {
    const vector = bridge.embed(question);
    const exact = topical.map((m) => ({ text: m.text, score: dot(m.vector, vector) }))
      .sort((a, b) => b.score - a.score).slice(0, 10);
    const response = await running.api('POST', '/api/v1/query', { query: question, mode: 'semantic', limit: 10, filters: { folder: '/research' } });
    assert.equal(response.status, 200);
    const hits = response.body.results as Array<{ content: string; folder: string; score: number }>;
    assert.ok(hits.every((hit) => hit.folder === '/research'), `every hit is in the folder ("${question}")`);
    assert.deepEqual(hits.map((hit) => hit.score.toFixed(5)), exact.map((e) => Math.min(1, Math.max(0, e.score)).toFixed(5)),
      `the folder's exact best scores, best first ("${question}")`);
  }

  test('returns the folder\'s exact best ten, looking where the folder\'s vectors are', async () => {
    const index = running.controller.holder.current().index as ThreadedVectorIndex;
    const samples: number[] = [];
    const search = index.search.bind(index);
    index.search = (query, k, among) => {
      if (among) samples.push(among.length / query.length);
      return search(query, k, among);
    };
    try {
      for (const question of ['river mountain engine garden', 'violin market winter', 'castle rocket candle forest']) {
        await assertFolderExactBestTen(question);
      }
      // Too few of the first candidates pass (the folder is an eighth of the store, far from the question): the
      // wider search carried a sample of the folder's vectors (256 of its 325).
      assert.ok(samples.length > 0, 'a search carried a sample of the folder\'s vectors');
      assert.ok(samples.every((rows) => rows === 256), `a sample of the folder's vectors: ${samples.join(', ')} rows`);
    } finally {
      index.search = search;
    }
  });

  test('once the folder\'s regions are found mostly its own, a search looks there alone: one index search, the exact best ten, on its topic too', async () => {
    const index = running.controller.holder.current().index as ThreadedVectorIndex;
    const calls: Array<{ k: number; among: boolean; found: number }> = [];
    const search = index.search.bind(index);
    index.search = async (query, k, among) => {
      const found = await search(query, k, among);
      calls.push({ k, among: among !== undefined, found: found.length });
      return found;
    };
    try {
      // A question about another topic takes the wider search among the folder's regions, which notes where it lies.
      await assertFolderExactBestTen('violin market winter');
      for (const question of ['river mountain engine garden', 'paper dataset baseline', 'ablation figure benchmark replicate']) {
        calls.length = 0;
        await assertFolderExactBestTen(question);
        assert.deepEqual(calls.map((call) => call.among), [true], `one search, among the folder's regions ("${question}"): ${JSON.stringify(calls)}`);
      }
      // A folder that is most of the store (/other, 7/8 of it) is not searched that way: its search starts near the
      // question.
      calls.length = 0;
      await running.api('POST', '/api/v1/query', { query: 'paper dataset baseline', mode: 'semantic', limit: 10, filters: { folder: '/other' } });
      assert.equal(calls[0]?.among, false, `a search under /other starts near the question: ${JSON.stringify(calls)}`);
    } finally {
      index.search = search;
    }
  });
});
