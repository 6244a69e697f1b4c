import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createPool } from '../../src/adapters/postgres/postgres-pool.js';
import { PostgresStatisticsKeeper } from '../../src/adapters/postgres/postgres-statistics-keeper.js';
import { openPostgresStorage, type PostgresStorage } from '../../src/adapters/postgres/postgres-storage.js';
import { newId } from '../../src/domain/ids.js';
import type { Logger } from '../../src/ports/logger.js';
import { VectorIndexHolder } from '../../src/vector-index/vector-index.holder.js';
import { POSTGRES_TARGETS, type PostgresDatabase } from '../helpers/postgres-servers.js';
import { waitFor } from '../helpers/wait-for.js';

const quiet: Logger = { debug() {}, info() {}, warn() {}, error() {} };
const MODEL = { model: 'test-model', dimension: 8 };

/** A unit vector along one axis, with a little of the next: distinct, and each nearest to its own axis. */
const axis = (i: number) => {
  const vector = new Float32Array(MODEL.dimension);
  vector[i % MODEL.dimension] = 1;
  vector[(i + 1) % MODEL.dimension] = 0.1;
  const norm = Math.hypot(...vector);
  return vector.map((value) => value / norm);
};

/** A replica's storage with its own graph (storage.vector_index: local), and the holder that opens it. */
async function replica(url: string, dataDir: string): Promise<{ storage: PostgresStorage; holder: VectorIndexHolder }> {
  const storage = await openPostgresStorage({ url, poolSize: 3, vectorIndex: { kind: 'local' }, dataDir });
  const holder = new VectorIndexHolder(storage.embeddings, storage.openLocalIndex, quiet);
  await holder.start();
  return { storage, holder };
}

/** Embeds every pending message as the worker does on replica `writer`: `vectorOf(i)` for "message i". */
async function embedOn(writer: { storage: PostgresStorage; holder: VectorIndexHolder }, vectorOf: (position: number) => Float32Array) {
  for (;;) {
    const batch = await writer.storage.embeddings.claimPending(100, 60_000);
    if (batch.length === 0) return;
    assert.ok(await writer.holder.accept(MODEL));
    const items = batch.map((message) => ({ key: message.key, vector: vectorOf(Number(message.content.replace('message ', ''))) }));
    await writer.storage.embeddings.complete(MODEL.model, items);
    await writer.holder.current().index!.add(items.map((item) => item.key), items.map((item) => item.vector));
  }
}

for (const target of POSTGRES_TARGETS) {
  describe(`vector_index local on one database: replicas follow each other's vectors (${target.name})`, () => {
    let database: PostgresDatabase;
    const dirs: string[] = [];
    const dir = () => { const made = mkdtempSync(join(tmpdir(), 'memsvc-follow-')); dirs.push(made); return made; };
    before(async () => { database = await target.open(); });
    after(async () => {
      await database.stop();
      for (const made of dirs) rmSync(made, { recursive: true, force: true });
    });

    test('vectors stored on one replica reach the other\'s graph; after a rebuild its graph holds only the new ones', async () => {
      const a = await replica(database.url, dir());
      const b = await replica(database.url, dir());
      try {
        await a.storage.conversations.create({
          id: newId(), label: 'axes', folder: '/', importanceScore: 5, now: '2026-05-01T10:00:00.000Z',
          messages: Array.from({ length: 8 }, (_, i) => ({ role: 'user' as const, content: `message ${i}`, timestamp: '2026-05-01T10:00:00.000Z' })),
        }, { maxMessagesPerConversation: 50, sessionGapMs: 30 * 60_000 });
        const positionOf = new Map<number, number>();
        await embedOn(a, (position) => axis(position));
        const nearestOnB = async (query: Float32Array) => {
          await b.holder.refresh();
          return b.storage.vectorSearch(() => b.holder.current().index).nearest(query, {}, 1);
        };
        const keysByAxis = await Promise.all([0, 3, 6].map(async (i) =>
          (await a.storage.vectorSearch(() => a.holder.current().index).nearest(axis(i), {}, 1))[0]!.key));
        keysByAxis.forEach((key, n) => positionOf.set(key, [0, 3, 6][n]!));
        for (const [key, position] of positionOf) {
          const found = await waitFor(() => nearestOnB(axis(position)), { what: `b's graph to hold message ${position}`,
            until: (hits) => hits[0]?.key === key });
          assert.ok(Math.abs(found[0]!.score - 1) < 1e-5, 'scored exactly against the stored vector');
        }

        // A conversation deleted through A: its vector leaves B's graph too.
        const doomed = newId();
        await a.storage.conversations.create({
          id: doomed, label: 'doomed', folder: '/', importanceScore: 5, now: '2026-05-01T11:00:00.000Z',
          messages: [{ role: 'user', content: 'message 9', timestamp: '2026-05-01T11:00:00.000Z' }],
        }, { maxMessagesPerConversation: 50, sessionGapMs: 30 * 60_000 });
        const uniform = new Float32Array(MODEL.dimension).fill(1 / Math.sqrt(MODEL.dimension));
        await embedOn(a, (position) => (position === 9 ? uniform : axis(position)));
        const doomedKey = (await a.storage.vectorSearch(() => a.holder.current().index).nearest(uniform, {}, 1))[0]!.key;
        const held = b.holder.current().index!;
        await waitFor(() => held.missing([doomedKey]), { what: 'b\'s graph to hold the message', until: (missing) => missing.length === 0 });
        assert.ok(await a.storage.conversations.delete(doomed));
        await waitFor(() => held.missing([doomedKey]), { what: 'b\'s graph to drop it', until: (missing) => missing.length === 1 });
        assert.deepEqual(await held.missing([...positionOf.keys()]), [], 'the others stay');

        // A rebuild: every vector goes, and the messages come back along other axes (message i along axis i + 4).
        await a.storage.embeddings.resetAll();
        await a.holder.reset();
        await embedOn(a, (position) => axis(position + 4));
        // Asked of b's graph itself: the search re-ranks by the stored vectors, which would hide stale ones in a store this small.
        const graph = b.holder.current().index!;
        for (const [key, position] of positionOf) {
          await waitFor(() => graph.search(axis(position + 4), 1), { what: `b's graph to hold message ${position} along its new axis`,
            until: (hits) => hits[0]?.key === key });
          assert.equal((await nearestOnB(axis(position + 4)))[0]!.key, key);
        }
        await waitFor(async () => graph.size(), { what: 'b\'s graph to hold the 8 new vectors and none of the old', until: (size) => size === 8 });
      } finally {
        await a.holder.close();
        await b.holder.close();
        await a.storage.close();
        await b.storage.close();
      }
    });

    test('a graph in the replica needs a data dir to keep it in: opening without one is refused', async () => {
      await assert.rejects(openPostgresStorage({ url: database.url, poolSize: 1, vectorIndex: { kind: 'local' } }),
        /storage\.vector_index local keeps a graph in server\.data_dir/);
    });

    test('notes of removals are kept a day for the replicas to follow, then cleared', async () => {
      const pool = createPool(database.url, 1);
      try {
        await pool.query(`INSERT INTO vector_removals (message_seq, removed_at) VALUES (1001, now() - interval '25 hours'), (1002, now() - interval '1 hour')`);
        await new PostgresStatisticsKeeper(pool).check();
        const { rows } = await pool.query<{ key: number }>('SELECT message_seq AS key FROM vector_removals WHERE message_seq IN (1001, 1002)');
        assert.deepEqual(rows.map((row) => row.key), [1002]);
      } finally {
        await pool.end();
      }
    });
  });
}
