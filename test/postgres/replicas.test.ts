import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FakeBridge } from '../helpers/fake-bridge.js';
import { POSTGRES_TARGETS, type PostgresDatabase } from '../helpers/postgres-servers.js';
import { removeDir, type RunningService, spawnService, startService, type ServiceProcess } from '../helpers/service-harness.js';
import { waitFor } from '../helpers/wait-for.js';

async function completedJobs(replica: { baseUrl: string }): Promise<number> {
  const text = await (await fetch(`${replica.baseUrl}/metrics`)).text();
  const line = text.split('\n').find((l) => l.startsWith('memsvc_embedding_jobs_completed_total '));
  return line ? Number(line.split(' ')[1]) : 0;
}

const conversation = (replica: string, i: number) => ({
  label: `from ${replica}`, folder: `/replicas/${replica}`,
  messages: [
    { role: 'user', content: `Replica ${replica} note ${i}: the harbour ferry leaves at dawn` },
    { role: 'assistant', content: `Noted ${i}; pack a raincoat for the ${replica === 'a' ? 'mountain' : 'river'} trail` },
  ],
});

/** Several controllers on one PostgreSQL: stateless replicas sharing conversations, vectors and the embedding queue. */
for (const target of POSTGRES_TARGETS) {
  describe(`replicas on one postgres database (${target.name})`, () => {
    let pg: PostgresDatabase;
    let bridge: FakeBridge;
    const dirs: string[] = [];
    const replica = async (overrides: object = {}) => {
      const running = await startService({ bridge: { url: bridge.url },
        overrides: { storage: { driver: 'postgres', url: pg.url, pool_size: 4 }, ...overrides },
      });
      dirs.push(running.dataDir);
      return running;
    };

    before(async () => {
      pg = await target.open();
      bridge = await new FakeBridge().start();
    });
    after(async () => {
      await bridge.stop();
      await pg.stop();
      dirs.forEach(removeDir);
    });

    test('keys and tokens made on one replica work on the other; a revocation holds on both within a second', async () => {
      const [a, b] = await Promise.all([replica(), replica()]);
      try {
        const created = await a.api('POST', '/api/v1/keys', { name: `replicated-${Date.now()}`, grants: [{ folder: '/replicas/t', access: 'write' }] });
        assert.equal(created.status, 201, created.text);
        const as = { authorization: `Bearer ${created.body.key}` };
        const token = await b.api('POST', '/api/v1/keys/me/tokens', { grants: [{ folder: '/replicas/t', access: 'read' }] }, as);
        assert.equal(token.status, 201, 'the key made on a works on b');
        const byToken = { authorization: `Bearer ${token.body.token}` };
        assert.equal((await a.api('GET', '/api/v1/keys/me', undefined, byToken)).status, 200, 'a token minted on b verifies on a');
        assert.equal((await b.api('GET', '/api/v1/keys/me', undefined, as)).status, 200);
        assert.equal((await a.api('DELETE', `/api/v1/keys/${created.body.id}`)).status, 204);
        assert.equal((await a.api('GET', '/api/v1/keys/me', undefined, as)).status, 401, 'refused at once where it was revoked');
        // b may have the key from before the revocation for at most 500 ms; past that, it reads the store again.
        await new Promise((resolve) => setTimeout(resolve, 600));
        assert.equal((await b.api('GET', '/api/v1/keys/me', undefined, as)).status, 401, 'refused on the other replica');
        assert.equal((await b.api('GET', '/api/v1/keys/me', undefined, byToken)).status, 401, 'its token too');
      } finally {
        await Promise.all([a.stop(), b.stop()]);
      }
    });

    test('ingest through both: every message embedded exactly once, each replica finds the other\'s', async () => {
      const [a, b] = await Promise.all([replica(), replica()]);
      try {
        const writes = [];
        for (let i = 0; i < 15; i += 1) {
          writes.push(a.api('POST', '/api/v1/conversations', conversation('a', i)));
          writes.push(b.api('POST', '/api/v1/conversations', conversation('b', i)));
        }
        assert.ok((await Promise.all(writes)).every((response) => response.status === 201));
        await waitFor(() => a.api('GET', '/api/v1/embeddings/status'), { what: 'all 60 messages embedded', until: (r) => r.body.pending === 0 && r.body.done === 60 });
        // A replica counts a batch once its vectors are on their way into its graph, a moment after the store shows them done.
        const [jobsA, jobsB] = await waitFor(() => Promise.all([completedJobs(a), completedJobs(b)]),
          { what: 'both replicas to count what they stored', until: ([jobsA, jobsB]) => jobsA + jobsB >= 60 });
        assert.equal(jobsA + jobsB, 60, `embedded once each: a stored ${jobsA}, b stored ${jobsB}`);

        for (const [reader, other] of [[a, 'b'], [b, 'a']] as const) {
          // A replica that embedded nothing itself opens its graph of the vectors when it sees the model another
          // recorded; until that graph has caught up, its answers say partial.
          const semantic = await waitFor(() => reader.api('POST', '/api/v1/query',
            { query: `Replica ${other} note 3 harbour ferry`, mode: 'semantic', filters: { folder: `/replicas/${other}` }, limit: 3 }),
          { what: 'a complete semantic answer', until: (r) => r.status !== 200 || r.body.partial !== true });
          assert.equal(semantic.status, 200);
          assert.equal(semantic.body.results[0].label, `from ${other}`);
          assert.match(semantic.body.results[0].content, new RegExp(`Replica ${other} note 3:`));
          const keyword = await reader.api('POST', '/api/v1/query', { query: other === 'a' ? 'mountain trail' : 'river trail', mode: 'keyword', limit: 20 });
          assert.ok(keyword.body.results.length >= 15);
          assert.ok(keyword.body.results.slice(0, 15).every((hit: { folder: string }) => hit.folder === `/replicas/${other}`));
        }
        const health = await a.api('GET', '/health');
        assert.equal(health.body.checks.database.driver, 'postgres');
        assert.equal(health.body.checks.database.status, 'ok');
      } finally {
        await Promise.all([a.stop(), b.stop()]);
      }
    });

    test('vector_index local: each replica\'s own graph holds what the other embedded', async () => {
      const local = { storage: { driver: 'postgres', url: pg.url, pool_size: 4, vector_index: 'local' } };
      const [a, b] = await Promise.all([replica(local), replica(local)]);
      // Unfiltered, so the replica's graph gives the candidates: it must hold the other replica's vectors too.
      const best = async (reader: RunningService, query: string) => (await reader.api('POST', '/api/v1/query',
        { query, mode: 'semantic', limit: 3 })).body.results?.map((hit: { content: string }) => hit.content) ?? [];
      try {
        // Both graphs open and caught up first: what comes next reaches a replica's graph only from its own worker or
        // by following the other's.
        assert.equal((await a.api('POST', '/api/v1/conversations', conversation('warm-up', 0))).status, 201);
        for (const reader of [a, b]) {
          await waitFor(() => reader.api('POST', '/api/v1/query', { query: 'harbour ferry', mode: 'semantic', limit: 1 }), {
            what: 'a graph open and caught up', timeoutMs: 30_000, until: (r) => r.body.partial !== true && r.body.results?.length === 1 });
        }
        const writes = [];
        for (let i = 0; i < 10; i += 1) {
          writes.push(a.api('POST', '/api/v1/conversations', conversation('c', i)));
          writes.push(b.api('POST', '/api/v1/conversations', conversation('d', i)));
        }
        assert.ok((await Promise.all(writes)).every((response) => response.status === 201));
        await waitFor(() => a.api('GET', '/api/v1/embeddings/status'), { what: 'every message embedded', until: (r) => r.body.pending === 0 });
        for (const reader of [a, b]) {
          // Notes whose numbers the fake embedder hashes to their own dimension (5 and 9 share one, so they tie).
          for (const [writer, note] of [['c', 2], ['c', 6], ['c', 8], ['d', 1], ['d', 4], ['d', 7]] as const) {
            await waitFor(() => best(reader, `Replica ${writer} note ${note} harbour ferry dawn`), {
              what: `replica ${reader === a ? 'a' : 'b'} to find ${writer} note ${note}`, timeoutMs: 30_000,
              until: (top) => new RegExp(`^Replica ${writer} note ${note}:`).test(top[0] ?? ''),
            });
          }
        }
        // Alike up to ties: many of these messages score the same, and either replica may answer any of the tied.
        const scored = async (reader: RunningService) => (await reader.api('POST', '/api/v1/query',
          { query: 'Replica c note 7 harbour ferry dawn', mode: 'semantic', limit: 3 })).body.results
          .map((hit: { content: string; score: number }) => [hit.content, hit.score.toFixed(6)]);
        const [onA, onB] = [await scored(a), await scored(b)];
        assert.deepEqual(onB.map((hit: string[]) => hit[1]), onA.map((hit: string[]) => hit[1]), 'both replicas score alike');
        assert.deepEqual(onB[0], onA[0], 'and find the same best');
      } finally {
        await Promise.all([a.stop(), b.stop()]);
      }
    });

    test('a replica killed with jobs in hand loses nothing: another takes them over when the lease lapses', async () => {
      const stalled = await new FakeBridge().start();
      stalled.stallEmbeds = true;
      const dataDir = mkdtempSync(join(tmpdir(), 'memsvc-replica-'));
      dirs.push(dataDir);
      let doomed: ServiceProcess | null = null;
      try {
        doomed = await spawnService({ dataDir, env: {
          MEMSVC_STORAGE_DRIVER: 'postgres', MEMSVC_STORAGE_URL: pg.url, MEMSVC_BRIDGE_START: 'false', MEMSVC_BRIDGE_URL: stalled.url,
          MEMSVC_RATE_LIMIT_ENABLED: 'false', MEMSVC_EMBEDDING_WORKER_CLAIM_LEASE_MS: '1500', MEMSVC_EMBEDDING_WORKER_POLL_INTERVAL_MS: '20',
        } });
        const created = await doomed.api('POST', '/api/v1/conversations', conversation('doomed', 1));
        assert.equal(created.status, 201, 'the write was acknowledged');
        const { id } = created.body as { id: string };
        await waitFor(async () => stalled.embedCalls, { what: 'the doomed replica to claim the jobs and call the bridge', until: (calls) => calls > 0 });
        doomed.child.kill('SIGKILL');
        await doomed.exited;

        const survivor: RunningService = await replica({ embedding_worker: { claim_lease_ms: 1500 } });
        try {
          // Its own counter (a registry per controller) starts at 0: it may have taken the jobs over before this line.
          const status = await waitFor(() => survivor.api('GET', '/api/v1/embeddings/status'), { what: 'the survivor to embed what the dead replica held', until: (r) => r.body.pending === 0, timeoutMs: 30_000 });
          assert.equal(status.body.failed, 0);
          assert.equal(await completedJobs(survivor), 2, 'the survivor embedded both messages the dead replica held');
          const messages = await survivor.api('GET', `/api/v1/conversations/${id}/messages`);
          assert.deepEqual(messages.body.results.map((m: { embedding_status: string }) => m.embedding_status), ['done', 'done'],
            'the acknowledged messages are there and embedded');
        } finally {
          await survivor.stop();
        }
      } finally {
        if (doomed && doomed.child.exitCode === null) doomed.child.kill('SIGKILL');
        await stalled.stop();
      }
    });
  });
}
