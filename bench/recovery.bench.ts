/**
 * Recovery after a bridge outage: the real bridge process is stopped, messages
 * are stored while it is away, it is started again on the same port, and the
 * time from its first healthy answer to an empty queue is measured (plus the
 * time to the first message embedded). The worker runs with its production
 * settings (poll 250 ms, backoff up to 30 s, bridge probe up to 1 s).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { freePort, startBenchBridge, type BenchBridge } from './lib/bridge.js';
import { startController } from './lib/controller.js';
import type { Measurement, Scenario, ScenarioContext } from './lib/scenario.js';
import { round, summarize } from './lib/stats.js';

const API_KEY = 'bench-recovery-key-0123456789abcdef0123456789';

export const scenario: Scenario = {
  name: 'recovery',
  description: 'bridge outage: messages stored while the bridge is down; drain time once it answers again',
  options: {
    messages: { kind: 'number', description: 'messages stored during each outage', default: 500, quick: 50 },
    'outage-seconds': { kind: 'number', description: 'how long the bridge stays down (the worker backs off meanwhile)', default: 20, quick: 3 },
    runs: { kind: 'number', description: 'outages', default: 3, quick: 1 },
  },
  run,
};

async function run(context: ScenarioContext) {
  const root = mkdtempSync(join(tmpdir(), 'memsvc-bench-recovery-'));
  const port = await freePort();
  let bridge: BenchBridge | null = await startBenchBridge(join(root, 'bridge'), API_KEY, port);
  const { controller, baseUrl } = await startController(join(root, 'data'), bridge.url, API_KEY);
  const call = async (method: string, path: string, body?: unknown) => {
    const response = await fetch(`${baseUrl}${path}`, {
      method,
      headers: { authorization: `Bearer ${API_KEY}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return response.json() as Promise<any>;
  };
  const ingest = async (label: string, count: number) => {
    for (let i = 0; i < count; i += 10) {
      await call('POST', '/api/v1/conversations', {
        label: `${label} ${i}`,
        messages: Array.from({ length: Math.min(10, count - i) }, (_, j) => ({
          role: j % 2 ? 'assistant' : 'user', content: `${label} message ${i + j} about the harbour, the ferry and the tide table`,
        })),
      });
    }
  };
  const until = async (accept: (status: any) => boolean) => {
    for (;;) {
      const status = await call('GET', '/api/v1/embeddings/status');
      if (accept(status)) return status;
      await sleep(20);
    }
  };

  const drains: number[] = [];
  const resumes: number[] = [];
  const bridgeStarts: number[] = [];
  try {
    await ingest('warm-up', 20);
    await until((s) => s.searchable);
    for (let runIndex = 0; runIndex < context.number('runs'); runIndex++) {
      await bridge.close();
      bridge = null;
      await ingest(`outage ${runIndex}`, context.number('messages'));
      context.log(`recovery: bridge down, ${context.number('messages')} messages stored; waiting ${context.number('outage-seconds')} s`);
      await sleep(context.number('outage-seconds') * 1000);
      const embeddedBefore = controller.worker.status().embeddedSinceStart;
      const spawned = performance.now();
      bridge = await startBenchBridge(join(root, 'bridge'), API_KEY, port);
      const healthy = performance.now();
      bridgeStarts.push(healthy - spawned);
      let resumed: number | null = null;
      await until((s) => {
        if (resumed === null && controller.worker.status().embeddedSinceStart > embeddedBefore) resumed = performance.now();
        return s.searchable;
      });
      const drained = performance.now();
      resumes.push((resumed ?? drained) - healthy);
      drains.push(drained - healthy);
      context.log(`recovery: run ${runIndex + 1}: first embedding ${round(resumes.at(-1)!)} ms, drained ${round(drains.at(-1)!)} ms after the bridge answered`);
    }
  } finally {
    await controller.close();
    await bridge?.close();
    rmSync(root, { recursive: true, force: true });
  }
  const measurement = (name: string, values: number[], note: string): Measurement => ({
    ...summarize(values, 0, values.reduce((a, b) => a + b, 0)), concurrency: 1, error_samples: [], group: 'bridge outage', name, note,
  });
  return {
    dataset: { messages_per_outage: context.number('messages'), outage_s: context.number('outage-seconds') },
    seeding: [],
    measurements: [
      measurement('bridge healthy -> first embedding', resumes, 'the worker notices the bridge is back'),
      measurement('bridge healthy -> queue drained', drains, `${context.number('messages')} messages embedded and indexed`),
      measurement('bridge spawn -> healthy', bridgeStarts, 'the bridge process start itself, not part of the drain'),
    ],
    notes: ['Each row\'s samples are the runs (one per outage); times in ms. The drain includes embedding the backlog.'],
  };
}
