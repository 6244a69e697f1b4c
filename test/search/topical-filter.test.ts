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
 * A folder that follows a topic, asked about another: the graph's candidates nearest the question hold few of the
 * folder's messages. The search must still return the folder's exact best ten, through the index
 * (exact_max_candidates 100 keeps the folder's 325 vectors from an exact scan).
 */
describe('semantic search under a topical folder filter', () => {
  let bridge: FakeBridge;
  let running: RunningService;
  const topical: Array<{ text: string; vector: number[] }> = [];

  before(async () => {
    bridge = await new FakeBridge().start();
    running = await startService({
      bridge: { url: bridge.url },
      overrides: { search: { exact_max_candidates: 100 } },
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
    await (running.controller.holder.current().index as ThreadedVectorIndex).flush();
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

  test('returns the folder\'s exact best ten, searching wider when too few of the first candidates are the folder\'s', async () => {
    const index = running.controller.holder.current().index as ThreadedVectorIndex;
    const asked: number[][] = [];
    const search = index.search.bind(index);
    index.search = (query, k) => {
      asked.at(-1)?.push(k);
      return search(query, k);
    };
    try {
      for (const question of ['river mountain engine garden', 'violin market winter', 'castle rocket candle forest']) {
        asked.push([]);
        await assertFolderExactBestTen(question);
      }
      // The folder is an eighth of the store, far from these questions: a second, wider search found its best ten.
      assert.ok(asked.some((ks) => ks.length === 2 && ks[1]! > ks[0]!), `a wider second search: ${JSON.stringify(asked)}`);
    } finally {
      index.search = search;
    }
  });

  test('a question on the folder\'s own topic gets its exact best ten too', async () => {
    for (const question of ['paper dataset baseline', 'ablation figure benchmark replicate']) await assertFolderExactBestTen(question);
  });
});
