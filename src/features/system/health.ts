/** One component the service depends on; `run` throws when the component is unusable. */
export interface HealthCheck {
  name: string;
  run(): Promise<void>;
  /** Optional details reported alongside the status (e.g. model id, queue depth). */
  details?(): Promise<Record<string, unknown>>;
}

export interface HealthCheckResult {
  status: 'ok' | 'error';
  latency_ms: number;
  error?: string;
  [detail: string]: unknown;
}

export interface HealthReport {
  status: 'healthy' | 'unhealthy';
  timestamp: string;
  checks: Record<string, HealthCheckResult>;
  uptime_seconds: number;
}

export const CHECK_TIMEOUT_MS = 2000;

export async function runHealthChecks(checks: readonly HealthCheck[], startedAt: number, now = new Date()): Promise<HealthReport> {
  const results = await Promise.all(checks.map(async (check): Promise<[string, HealthCheckResult]> => {
    const started = performance.now();
    try {
      await withTimeout(check.run(), CHECK_TIMEOUT_MS);
      const details = check.details ? await check.details().catch(() => ({})) : {};
      return [check.name, { status: 'ok', latency_ms: elapsed(started), ...details }];
    } catch (error) {
      return [check.name, { status: 'error', latency_ms: elapsed(started), error: (error as Error).message }];
    }
  }));
  const checksByName = Object.fromEntries(results);
  return {
    status: results.every(([, result]) => result.status === 'ok') ? 'healthy' : 'unhealthy',
    timestamp: now.toISOString(),
    checks: checksByName,
    uptime_seconds: Math.floor((Date.now() - startedAt) / 1000),
  };
}

const elapsed = (started: number) => Math.round((performance.now() - started) * 100) / 100;

export function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  let timer: NodeJS.Timeout;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}
