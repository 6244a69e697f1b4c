import type { Clock } from '../../ports/clock.js';

/**
 * One computed value kept for `ttlMs` (a number, or one worked out from the value), and one computation at a time:
 * however many callers ask within the window, the work runs once. This is what keeps the public /health from being
 * a way to multiply load on the database and the bridge.
 */
export class CachedValue<T> {
  private kept: { at: number; ttlMs: number; value: T } | null = null;
  private inFlight: Promise<T> | null = null;

  constructor(
    private readonly compute: () => Promise<T>,
    private readonly ttlMs: number | ((value: T) => number),
    private readonly clock: Clock,
  ) {}

  get(): Promise<T> {
    const now = this.clock.now().getTime();
    if (this.kept && now - this.kept.at < this.kept.ttlMs) return Promise.resolve(this.kept.value);
    this.inFlight ??= this.compute()
      .then((value) => {
        this.kept = { at: now, ttlMs: typeof this.ttlMs === 'number' ? this.ttlMs : this.ttlMs(value), value };
        return value;
      })
      .finally(() => { this.inFlight = null; });
    return this.inFlight;
  }
}
