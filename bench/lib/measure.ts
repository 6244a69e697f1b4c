import type { HttpClient } from './http-client.js';
import { runLoad, type LoadOptions } from './load.js';
import { round } from './stats.js';
import type { Measurement, ScenarioContext } from './scenario.js';
import type { BenchServer } from './server.js';

export interface MeasureSpec extends Omit<LoadOptions, 'client'> {
  group: string;
  name: string;
  note?: string;
}

/** One fixed-concurrency HTTP measurement against the bench server, with the server's CPU share. */
export async function measureHttp(
  context: ScenarioContext,
  server: BenchServer,
  client: HttpClient,
  spec: MeasureSpec,
): Promise<Measurement> {
  const { group, name, note, ...load } = spec;
  context.log(`  ${group} / ${name} (c=${load.concurrency}, up to ${load.maxRequests} requests or ${load.maxDurationMs / 1000}s)`);
  const cpuBefore = await server.cpuTime();
  const result = await runLoad({ ...load, client });
  const cpuAfter = await server.cpuTime();
  const cpuMs = cpuAfter.user_ms + cpuAfter.system_ms - cpuBefore.user_ms - cpuBefore.system_ms;
  const measurement: Measurement = {
    group,
    name,
    ...result,
    server_cpu_pct: round((cpuMs / Math.max(1, result.wall_ms)) * 100, 1),
    ...(note !== undefined ? { note } : {}),
  };
  if (result.errors > 0) context.log(`    ${result.errors} errors, e.g. ${result.error_samples[0] ?? '?'}`);
  return measurement;
}
