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
 * Semantic search through the index path (exact_max_candidates 0 forces it even for selective filters and a store this
 * small) and by exact scans (4000) against exact cosine over every stored vector, computed here from the same vectors
 * the bridge gave. Every path answers exact float32 scores (re-ranked, not the index's i8 approximations) whose hits
 * pass the filter; an exact scan finds exactly the top 10, and the graph all but at most one of them: an HNSW graph
 * can leave a vector that no search reaches (one in 400 here now and then, even exploring more than the store holds).
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
    test(`exact_max_candidates ${exactMaxCandidates}: exact scores and the exact top 10 (the graph all but one), with and without folder filters`, async () => {
      // Exploring more candidates than the store holds leaves only the graph's unreachable vectors unfound.
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
          const admitted = messages.filter((m) => inFolder(m.folder));
          // A folder's few vectors are scanned exactly unless exact_max_candidates is 0; with no filter the graph answers.
          const allowedMisses = folder === null || exactMaxCandidates === 0 ? 1 : 0;
          for (const query of QUERIES) {
            const queryVector = bridge.embed(query);
            const scoreOf = new Map(admitted.map((m) => [m.text, clamp01(dot(m.vector, queryVector)).toFixed(5)]));
            const exact = [...scoreOf.values()].sort((a, b) => Number(b) - Number(a));
            // A semantic search re-ranks exactly what its page shows: the second page too, and total still counts every
            // candidate ranked (the search's depth of 100, or all the filter admits).
            for (const offset of [0, 10]) {
              const response = await running.api('POST', '/api/v1/query', {
                query, mode: 'semantic', limit: 10, offset, ...(folder ? { filters: { folder } } : {}),
              });
              assert.equal(response.status, 200);
              const hits = response.body.results as Array<{ content: string; folder: string; score: number }>;
              const where = `${offset > 0 ? 'page 2, ' : ''}query "${query}", folder ${folder ?? 'none'}`;
              assert.ok(hits.every((hit) => inFolder(hit.folder)), `every hit passes the filter (${where})`);
              const scores = hits.map((hit) => hit.score.toFixed(5));
              assert.deepEqual(scores, hits.map((hit) => scoreOf.get(hit.content)), `each hit's exact float32 score (${where})`);
              assert.deepEqual(scores, [...scores].sort((a, b) => Number(b) - Number(a)), `best first (${where})`);
              const unfound = [...scores];
              const missed = exact.slice(offset, offset + 10).filter((score) => {
                const at = unfound.indexOf(score);
                if (at >= 0) unfound.splice(at, 1);
                return at < 0;
              });
              assert.ok(missed.length <= allowedMisses, `the exact page, missing ${missed.join(', ') || 'none'} (${where})`);
              const total = response.body.total as number;
              const ranked = Math.min(100, admitted.length);
              assert.ok(total <= ranked && total >= ranked - allowedMisses, `total ${total} of ${ranked} (${where})`);
            }
          }
        }
      } finally {
        await running.stop();
        removeDir(running.dataDir);
      }
    });
  }
});
