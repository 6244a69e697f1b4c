import { statfs } from 'node:fs/promises';
import type { Clock } from '../../ports/clock.js';
import type { EmbeddingCounts } from '../../ports/embedding-queue.js';
import { UpstreamError } from '../../domain/upstream-error.js';
import type { IndexCatchUp } from '../../vector-index/vector-index.holder.js';
import { CHECK_TIMEOUT_MS, runHealthChecks, withTimeout, type HealthCheck, type HealthReport } from './health.js';

/** What /health/detailed reads; each part is a small function so the report needs no feature's internals. */
export interface DetailedHealthSources {
  checks: readonly HealthCheck[];
  startedAt: number;
  clock: Clock;
  database: { driver: string; ping(): Promise<void> };
  bridge: { url: string; health(): Promise<{ provider?: string; model?: string; dimension?: number }> };
  queue: { counts(): Promise<EmbeddingCounts>; oldestPendingTimestamp(): Promise<string | null> };
  worker: () => { running: boolean; consecutiveFailures: number; lastError: string | null; lastSuccessAt: string | null };
  /** Null without a local index (the database searches its vectors itself). */
  index: () => (IndexCatchUp & { partial: boolean }) | null;
  dataDir: string;
  /** Null when the proxy is off. */
  spool: (() => Promise<{ pending: number; failed: number }>) | null;
}

export interface DetailedHealthReport extends HealthReport {
  database: { status: 'ok' | 'error'; driver: string; error?: string };
  bridge: { reachable: boolean; status: 'ok' | 'error'; url: string; provider: string | null; model: string | null; error?: string };
  queue: {
    pending: number;
    failed: number;
    oldest_pending_age_seconds: number | null;
    worker: { running: boolean; consecutive_failures: number; last_error: string | null; last_success_at: string | null };
  };
  index: { state: IndexCatchUp['state'] | 'database'; indexed: number | null; missing_vectors: number; partial: boolean };
  disk: { path: string; free_bytes: number | null; total_bytes: number | null; error?: string };
  proxy: { enabled: boolean; spool_pending: number | null; spool_failed: number | null };
}

/** The full picture for an operator (behind the key): computed on every call, never cached. */
export async function detailedHealth(sources: DetailedHealthSources): Promise<DetailedHealthReport> {
  const now = sources.clock.now();
  const [report, database, bridge, counts, oldest, disk, spool] = await Promise.all([
    runHealthChecks(sources.checks, sources.startedAt, now),
    outcome(withTimeout(sources.database.ping(), CHECK_TIMEOUT_MS)),
    outcome(withTimeout(sources.bridge.health(), CHECK_TIMEOUT_MS)),
    sources.queue.counts(),
    sources.queue.oldestPendingTimestamp(),
    diskSpace(sources.dataDir),
    sources.spool ? sources.spool() : Promise.resolve(null),
  ]);
  const worker = sources.worker();
  const index = sources.index();
  const bridgeAnswered = bridge.ok || (bridge.error instanceof UpstreamError && bridge.error.status !== undefined);
  const oldestAt = oldest === null ? Number.NaN : Date.parse(oldest);
  return {
    ...report,
    database: {
      status: database.ok ? 'ok' : 'error', driver: sources.database.driver,
      ...(database.ok ? {} : { error: database.error.message }),
    },
    bridge: {
      reachable: bridgeAnswered, status: bridge.ok ? 'ok' : 'error', url: sources.bridge.url,
      provider: bridge.ok ? bridge.value.provider ?? null : null,
      model: bridge.ok ? bridge.value.model ?? null : null,
      ...(bridge.ok ? {} : { error: bridge.error.message }),
    },
    queue: {
      pending: counts.pending,
      failed: counts.failed,
      oldest_pending_age_seconds: Number.isFinite(oldestAt) ? Math.max(0, Math.floor((now.getTime() - oldestAt) / 1000)) : null,
      worker: {
        running: worker.running, consecutive_failures: worker.consecutiveFailures,
        last_error: worker.lastError, last_success_at: worker.lastSuccessAt,
      },
    },
    index: index
      ? { state: index.state, indexed: index.indexed, missing_vectors: Math.max(0, counts.done - index.indexed), partial: index.partial }
      : { state: 'database', indexed: null, missing_vectors: 0, partial: false },
    disk,
    proxy: { enabled: sources.spool !== null, spool_pending: spool?.pending ?? null, spool_failed: spool?.failed ?? null },
  };
}

type Outcome<T> = { ok: true; value: T } | { ok: false; error: Error };

async function outcome<T>(promise: Promise<T>): Promise<Outcome<T>> {
  try {
    return { ok: true, value: await promise };
  } catch (error) {
    return { ok: false, error: error as Error };
  }
}

async function diskSpace(path: string): Promise<DetailedHealthReport['disk']> {
  try {
    const stats = await statfs(path);
    // bavail: what an unprivileged process (this one) may still write.
    return { path, free_bytes: stats.bavail * stats.bsize, total_bytes: stats.blocks * stats.bsize };
  } catch (error) {
    return { path, free_bytes: null, total_bytes: null, error: (error as Error).message };
  }
}
