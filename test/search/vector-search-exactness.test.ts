import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { FakeBridge } from '../helpers/fake-bridge.js';
import { removeDir, type RunningService, startService } from '../helpers/service-harness.js';
import { waitFor } from '../helpers/wait-for.js';

const VOCABULARY = ('river mountain engine garden violin market winter coffee ladder silver planet harbor ' +
  'pencil thunder meadow castle rocket candle forest bridge orange saddle window travel marble tiger ' +
  'canyon lantern pepper rabbit anchor velvet glacier trumpet cactus falcon blanket compass').split(' ');
const MESSAGES = 400;
const QUERIES = ['river mountain engine', 'violin market winter coffee', 'rocket candle', 'tiger canyon lantern pepper',
  'anchor velvet glacier', 'silver planet harbor pencil'];

/** Conversation i's folder: nested so each filter keeps a known share (subtree filters include deeper folders). */
function folderOf(i: number): string {
  if (i % 100 === 0) return '/sel/a/b/c';
  if (i % 10 === 0) return '/sel/a/b';
  if (i % 2 === 0) return '/sel/a';
  return '/other';
}

function textOf(i: number): string {
  // A deterministic spread of 3-6 words per message.
  const words: string[] = [];
  let state = i * 2654435761 % 4294967296;
  for (let w = 0; w < 3 + (i % 4); w += 1) {
    state = (state * 1103515245 + 12345) % 2147483648;
    words.push(VOCABULARY[state % VOCABULARY.length]!);
  }
  return `${words.join(' ')} note${i}`;
}

const dot = (a: readonly number[], b: readonly number[]) => a.reduce((sum, x, i) => sum + Math.fround(x) * Math.fround(b[i]!), 0);
const clamp01 = (value: number) => Math.min(1, Math.max(0, value));

/**
 * Semantic search through the index path (exact_max_candidates 0 forces it
 * even for selective filters and a store this small) and by exact scans (4000) against exact cosine over every stored vector,
 * computed here from the same vectors the bridge gave: the scores are the
 * exact float32 ones (re-ranked, not the index's i8 approximations), the
 * hits pass the filter, and the top 10 match exactly at every selectivity.
 */
describe('semantic search: exact re-rank, filters at every selectivity', () => {
  let bridge: FakeBridge;
  const messages: Array<{ text: string; folder: string; vector: number[] }> = [];

  before(async () => {
    bridge = await new FakeBridge().start();
    for (let i = 0; i < MESSAGES; i += 1) {
      const text = textOf(i);
      messages.push({ text, folder: folderOf(i), vector: bridge.embed(text) });
    }
  });
  after(async () => { await bridge.stop(); });

  for (const exactMaxCandidates of [0, 4000]) {
    test(`exact_max_candidates ${exactMaxCandidates}: top 10 equals exact search, with and without folder filters`, async () => {
      // Exploring more candidates than the store holds makes the graph's search exhaustive: 384, the default, missed a
      // neighbour of 400 vectors now and then.
      const running: RunningService = await startService({
        bridge: { url: bridge.url }, overrides: { search: { exact_max_candidates: exactMaxCandidates, index_expansion_search: 1024 } },
      });
      try {
        for (let i = 0; i < MESSAGES; i += 50) {
          const batch = messages.slice(i, i + 50);
          // One conversation per message, so the folder is the message's own.
          await Promise.all(batch.map((message) => running.api('POST', '/api/v1/conversations', {
            label: 'exactness', folder: message.folder, messages: [{ role: 'user', content: message.text }],
          })));
        }
        await waitFor(() => running.api('GET', '/api/v1/embeddings/status'), { what: `all ${MESSAGES} messages embedded and searchable`, until: (r) => r.body.searchable === true && r.body.done === MESSAGES, timeoutMs: 30_000 });

        for (const folder of [null, '/sel/a', '/sel/a/b', '/sel/a/b/c']) {
          const inFolder = (f: string) => folder === null || f === folder || f.startsWith(`${folder}/`);
          for (const query of QUERIES) {
            const queryVector = bridge.embed(query);
            const exact = messages.filter((m) => inFolder(m.folder))
              .map((m) => ({ text: m.text, score: dot(m.vector, queryVector) }))
              .sort((a, b) => b.score - a.score)
              .slice(0, 10);
            const response = await running.api('POST', '/api/v1/query', {
              query, mode: 'semantic', limit: 10, ...(folder ? { filters: { folder } } : {}),
            });
            assert.equal(response.status, 200);
            const hits = response.body.results as Array<{ content: string; folder: string; score: number }>;
            const where = `query "${query}", folder ${folder ?? 'none'}`;
            assert.ok(hits.every((hit) => inFolder(hit.folder)), `every hit passes the filter (${where})`);
            assert.deepEqual(hits.map((hit) => hit.score.toFixed(5)), exact.map((e) => clamp01(e.score).toFixed(5)),
              `exact float32 scores, best first (${where})`);
            // Equal scores may come in either order; the texts must be the exact ones otherwise.
            const distinct = exact.filter((e, i) => exact.findIndex((o) => o.score.toFixed(5) === e.score.toFixed(5)) === i &&
              exact.filter((o) => o.score.toFixed(5) === e.score.toFixed(5)).length === 1);
            for (const e of distinct) assert.ok(hits.some((hit) => hit.content === e.text), `"${e.text}" is found (${where})`);
          }
          // A semantic search re-ranks exactly what its page shows: the next page is exact too, and total still counts
          // every candidate ranked (the search's depth of 100, or all the filter admits).
          const admitted = messages.filter((m) => inFolder(m.folder));
          for (const query of QUERIES) {
            const queryVector = bridge.embed(query);
            const exact = admitted.map((m) => dot(m.vector, queryVector)).sort((a, b) => b - a).slice(10, 20);
            const response = await running.api('POST', '/api/v1/query', {
              query, mode: 'semantic', limit: 10, offset: 10, ...(folder ? { filters: { folder } } : {}),
            });
            assert.equal(response.status, 200);
            const where = `page 2, query "${query}", folder ${folder ?? 'none'}`;
            assert.deepEqual((response.body.results as Array<{ score: number }>).map((hit) => hit.score.toFixed(5)),
              exact.map((score) => clamp01(score).toFixed(5)), `exact float32 scores, best first (${where})`);
            assert.equal(response.body.total, Math.min(100, admitted.length), `total (${where})`);
          }
        }
      } finally {
        await running.stop();
        removeDir(running.dataDir);
      }
    });
  }
});
