import { setTimeout as pause } from 'node:timers/promises';

export interface WaitForOptions<T> {
  /** What is awaited, in words; it names the failure ("waiting for <what>"). */
  what: string;
  /** Accepts a probed value; default: any truthy value. */
  until?: (value: T) => boolean;
  timeoutMs?: number;
  /** Pause between probes. */
  intervalMs?: number;
  /** Gives up at once with the signal's reason (e.g. the process being waited on has exited). */
  signal?: AbortSignal;
}

/**
 * The one way tests wait for background work: probes until the value is
 * accepted and returns it, or fails after the deadline with what was awaited
 * and the last value (or error) seen. A probe that throws counts as "not yet".
 */
export async function waitFor<T>(probe: () => T | Promise<T>, options: WaitForOptions<T>): Promise<T> {
  const { what, until = Boolean, timeoutMs = 15_000, intervalMs = 25, signal } = options;
  const deadline = Date.now() + timeoutMs;
  let last: string;
  for (;;) {
    signal?.throwIfAborted();
    try {
      const value = await probe();
      if (until(value)) return value;
      last = `last value: ${describe(value)}`;
    } catch (error) {
      last = `last error: ${error instanceof Error ? error.message : String(error)}`;
    }
    if (Date.now() >= deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}; ${last}`);
    await pause(intervalMs, undefined, signal ? { signal } : {}).catch(() => signal?.throwIfAborted());
  }
}

function describe(value: unknown): string {
  const text = JSON.stringify(value, (_key, field: unknown) => (field instanceof Headers ? undefined : field)) ?? String(value);
  return text.length > 500 ? `${text.slice(0, 500)}…` : text;
}
