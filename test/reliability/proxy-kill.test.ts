import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { unusedPort } from '../helpers/fake-bridge.js';
import { FakeOpenAiUpstream } from '../proxy/fake-openai-upstream.js';
import { removeDir, spawnService, type ServiceProcess } from '../helpers/service-harness.js';
import { waitFor } from '../helpers/wait-for.js';

const KEY = 'proxy-kill-key-0123456789abcdef0123456789';
const CLIENTS = 6;
/** Exchanges the clients see complete before the kill. */
const COMPLETE_BEFORE_KILL = 40;

/**
 * The chat proxy as `npm start` runs it, killed with SIGKILL while clients are
 * mid-request: every exchange a client saw complete (the whole JSON body, or
 * `data: [DONE]`) is stored exactly once after the restart, and no request cut
 * by the kill leaves an empty conversation.
 */
describe('proxy: kill -9 mid-traffic', () => {
  let upstream: FakeOpenAiUpstream;
  let dataDir: string;
  let service: ServiceProcess | null = null;
  let ports: { api: number; proxy: number; bridge: number };

  before(async () => {
    upstream = await new FakeOpenAiUpstream().start();
    upstream.chunkDelayMs = 2;
    dataDir = mkdtempSync(join(tmpdir(), 'memsvc-proxy-kill-'));
    ports = { api: await unusedPort(), proxy: await unusedPort(), bridge: await unusedPort() };
  });
  after(async () => {
    service?.child.kill('SIGKILL');
    await upstream.stop();
    removeDir(dataDir);
  });

  const start = async () => {
    service = await spawnService({ dataDir, port: ports.api, apiKey: KEY, env: {
      MEMSVC_SERVER_LOG_LEVEL: 'error', MEMSVC_BRIDGE_START: 'false',
      // No bridge answers: memory context is skipped quickly, which is all this test needs.
      MEMSVC_BRIDGE_URL: `http://127.0.0.1:${ports.bridge}`, MEMSVC_EMBEDDING_WORKER_ENABLED: 'false',
      MEMSVC_RATE_LIMIT_ENABLED: 'false', MEMSVC_PROXY_ENABLED: 'true', MEMSVC_PROXY_PORT: String(ports.proxy),
      MEMSVC_PROXY_UPSTREAM_URL: upstream.baseUrl,
    } });
    await waitFor(async () => (await fetch(`http://127.0.0.1:${ports.proxy}/v1/models`, { headers: { authorization: `Bearer ${KEY}` } })).status,
      { what: 'the proxy to answer GET /v1/models', until: (status) => status === 200, timeoutMs: 60_000 });
    return service;
  };

  const api = async (path: string) => (await service!.api('GET', path)).body;

  /** One chat exchange; resolves with its user text when the client saw it complete, null when it was cut. */
  const chat = async (text: string, stream: boolean): Promise<string | null> => {
    try {
      const response = await fetch(`http://127.0.0.1:${ports.proxy}/v1/chat/completions`, {
        method: 'POST',
        headers: { authorization: `Bearer ${KEY}`, 'content-type': 'application/json' },
        body: JSON.stringify({ model: 'm', stream, messages: [{ role: 'user', content: text }] }),
      });
      const body = await response.text();
      if (response.status !== 200) return null;
      if (stream) return body.includes('data: [DONE]') ? text : null;
      return JSON.parse(body).choices?.[0]?.message?.content ? text : null;
    } catch {
      return null;
    }
  };

  test('every exchange the client saw complete is stored exactly once; none leaves an empty conversation', async () => {
    const running = await start();
    const seen: string[] = [];
    let stop = false;
    let next = 0;
    const clients = Array.from({ length: CLIENTS }, async () => {
      while (!stop) {
        const n = next++;
        const text = `exchange number ${n}`;
        const outcome = await chat(text, n % 2 === 0);
        if (outcome) seen.push(outcome);
        if (seen.length >= COMPLETE_BEFORE_KILL && !stop) {
          stop = true;
          running.child.kill('SIGKILL');
        }
      }
    });
    await Promise.all(clients);
    await running.exited;
    assert.ok(seen.length >= COMPLETE_BEFORE_KILL);

    await start();
    // The restart takes up the spool: wait until it is empty, then count.
    await waitFor(async () => readdirSync(join(dataDir, 'proxy-spool')).filter((name) => !name.startsWith('failed')), { what: 'the restarted service to empty the proxy spool', until: (files) => files.length === 0, timeoutMs: 30_000 });
    assert.deepEqual(readdirSync(join(dataDir, 'proxy-spool', 'failed')), []);

    const list = await api('/api/v1/conversations?page_size=1000');
    const stored = new Map<string, number>();
    for (const conversation of list.results as Array<{ conversation_id: string; metadata: { message_count: number } }>) {
      assert.ok(conversation.metadata.message_count > 0, `conversation ${conversation.conversation_id} is empty`);
      const messages = await api(`/api/v1/conversations/${conversation.conversation_id}/messages?page_size=1000`);
      for (const message of messages.results as Array<{ role: string; content: string }>) {
        if (message.role === 'user') stored.set(message.content, (stored.get(message.content) ?? 0) + 1);
      }
    }
    const lost = seen.filter((text) => !stored.has(text));
    const twice = [...stored].filter(([, count]) => count > 1).map(([text]) => text);
    assert.deepEqual(lost, [], `${lost.length} of ${seen.length} exchanges the client saw complete were lost`);
    assert.deepEqual(twice, []);
    console.log(`# proxy kill -9: ${seen.length} exchanges seen complete, ${lost.length} lost, ${twice.length} stored twice, ${list.total} conversations`);
  });
});
