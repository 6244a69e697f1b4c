/** Latency and throughput summary of one measurement. All times in milliseconds. */
export interface LatencySummary {
  /** Requests that completed with the expected status. */
  count: number;
  /** Requests that failed (transport error or unexpected status). */
  errors: number;
  /** Wall time of the measured phase. */
  wall_ms: number;
  /** Successful requests per second of wall time. */
  throughput_per_s: number;
  mean_ms: number;
  min_ms: number;
  p50_ms: number;
  p95_ms: number;
  p99_ms: number;
  max_ms: number;
}

/** Nearest-rank percentile of an ascending sorted list. */
export function percentile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return Number.NaN;
  const rank = Math.ceil((p / 100) * sorted.length);
  return sorted[Math.min(sorted.length, Math.max(1, rank)) - 1] as number;
}

export function summarize(latenciesMs: readonly number[], errors: number, wallMs: number): LatencySummary {
  const sorted = [...latenciesMs].sort((a, b) => a - b);
  const sum = sorted.reduce((total, value) => total + value, 0);
  return {
    count: sorted.length,
    errors,
    wall_ms: round(wallMs),
    throughput_per_s: round(wallMs > 0 ? (sorted.length * 1000) / wallMs : 0),
    mean_ms: round(sorted.length ? sum / sorted.length : Number.NaN),
    min_ms: round(sorted[0] ?? Number.NaN),
    p50_ms: round(percentile(sorted, 50)),
    p95_ms: round(percentile(sorted, 95)),
    p99_ms: round(percentile(sorted, 99)),
    max_ms: round(sorted[sorted.length - 1] ?? Number.NaN),
  };
}

/** Three decimals: microsecond resolution is plenty for HTTP latencies. */
export function round(value: number, digits = 3): number {
  if (!Number.isFinite(value)) return value;
  const factor = 10 ** digits;
  return Math.round(value * factor) / factor;
}
